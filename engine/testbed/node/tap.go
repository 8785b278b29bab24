package node

import (
	"encoding/binary"
	"net"
	"sync"
	"time"
)

// This file is pslab's tcpdump + Wireshark: a passive HTTP/2 dissector on
// one side of a TCP connection. It parses frame headers (never payload
// beyond the first bytes of each gRPC message) from the bytes as they
// cross the socket, and reports
//   - for every gRPC message on a DATA stream: its header (kind, worker,
//     step, tensor) and the times its first and last byte were read from
//     (or written to) the socket;
//   - every SETTINGS_INITIAL_WINDOW_SIZE and connection WINDOW_UPDATE, from
//     which the flow-control window WIN is read (icpe20 §3.2.2: "extracted
//     from HTTP/2 headers captured by tcpdump").
// A time is the instant the Read or Write call carrying the byte returned.
//
// Not golang.org/x/net/http2.Framer: it is a pull parser that returns a
// frame only once the whole frame has been read from an io.Reader, so the
// tap would need a pipe and a goroutine per connection and would time a
// message's first byte at the arrival of its frame's last byte (up to one
// 16 KiB frame late, 1.3 ms at 100 Mbit/s: the size of the S^D and
// overhead effects being measured); this push parser times every chunk as
// it crosses the socket and copies nothing. (Reasoned, not benchmarked.)

// http2Preface is what an HTTP/2 client writes before its first frame.
const http2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// HTTP/2 frame types and flags used here (RFC 9113 §6).
const (
	frameData         = 0x0
	frameHeaders      = 0x1
	frameSettings     = 0x4
	frameWindowUpdate = 0x8
	flagEndStream     = 0x1
	flagAck           = 0x1
	flagPadded        = 0x8
	settingInitWindow = 0x4
)

// msgRecord is one gRPC message seen on the wire.
type msgRecord struct {
	Head        header
	First, Last int64 // unix ns of the first and last byte
	Bytes       int64 // message length without the 5-byte gRPC prefix
}

// wireStats are the flow-control facts seen in one direction.
type wireStats struct {
	// InitialWindow is the last SETTINGS_INITIAL_WINDOW_SIZE, or −1.
	InitialWindow int64
	// ConnIncrement is the sum of WINDOW_UPDATE increments on stream 0.
	ConnIncrement int64
	// FirstConnIncrement is the first such increment (gRPC raises the
	// connection window from 65535 with it), or 0.
	FirstConnIncrement int64
}

// grpcStream parses the gRPC length-prefixed messages of one HTTP/2 stream.
type grpcStream struct {
	prefix  [5]byte
	prefixN int
	remain  int64 // bytes of the current message body still to come
	length  int64
	head    [headerLen]byte
	headN   int
	first   int64
}

// h2parser dissects one direction of an HTTP/2 connection.
type h2parser struct {
	skip     int // preface bytes still to skip
	hdr      [9]byte
	hdrN     int
	typ      byte
	flags    byte
	stream   uint32
	remain   int // payload bytes of the current frame still to come
	padLen   int // padding at the end of the current DATA frame
	dataLeft int // data (non-padding) bytes of the current DATA frame still to come
	needPad  bool
	small    []byte // payload of SETTINGS / WINDOW_UPDATE frames
	streams  map[uint32]*grpcStream
	stats    wireStats
	onMsg    func(msgRecord)
}

// newH2Parser returns a parser of one direction; preface is true for the
// client-to-server direction, which starts with the connection preface.
func newH2Parser(preface bool, onMsg func(msgRecord)) *h2parser {
	p := &h2parser{streams: map[uint32]*grpcStream{}, onMsg: onMsg}
	p.stats.InitialWindow = -1
	if preface {
		p.skip = len(http2Preface)
	}
	return p
}

// feed parses b, which crossed the socket at time now (unix ns).
func (p *h2parser) feed(b []byte, now int64) {
	for len(b) > 0 {
		if p.skip > 0 {
			n := min(p.skip, len(b))
			p.skip -= n
			b = b[n:]
			continue
		}
		if p.remain == 0 && p.hdrN < 9 {
			n := copy(p.hdr[p.hdrN:], b)
			p.hdrN += n
			b = b[n:]
			if p.hdrN < 9 {
				return
			}
			p.startFrame()
			if p.remain == 0 {
				p.endFrame()
			}
			continue
		}
		n := min(p.remain, len(b))
		p.payload(b[:n], now)
		p.remain -= n
		b = b[n:]
		if p.remain == 0 {
			p.endFrame()
		}
	}
}

func (p *h2parser) startFrame() {
	p.remain = int(p.hdr[0])<<16 | int(p.hdr[1])<<8 | int(p.hdr[2])
	p.typ, p.flags = p.hdr[3], p.hdr[4]
	p.stream = binary.BigEndian.Uint32(p.hdr[5:9]) & 0x7fffffff
	p.padLen, p.needPad = 0, p.typ == frameData && p.flags&flagPadded != 0
	p.dataLeft = p.remain
	p.small = p.small[:0]
}

func (p *h2parser) payload(b []byte, now int64) {
	switch p.typ {
	case frameData:
		if p.needPad {
			p.padLen, p.needPad = int(b[0]), false
			p.dataLeft = p.remain - 1 - p.padLen
			b = b[1:]
		}
		d := max(0, min(p.dataLeft, len(b)))
		p.dataLeft -= d
		p.data(b[:d], now)
	case frameSettings, frameWindowUpdate:
		if len(p.small) < 64 {
			p.small = append(p.small, b...)
		}
	}
}

func (p *h2parser) endFrame() {
	switch p.typ {
	case frameSettings:
		if p.flags&flagAck == 0 {
			for s := p.small; len(s) >= 6; s = s[6:] {
				if binary.BigEndian.Uint16(s) == settingInitWindow {
					p.stats.InitialWindow = int64(binary.BigEndian.Uint32(s[2:]))
				}
			}
		}
	case frameWindowUpdate:
		if p.stream == 0 && len(p.small) >= 4 {
			inc := int64(binary.BigEndian.Uint32(p.small) & 0x7fffffff)
			if p.stats.FirstConnIncrement == 0 {
				p.stats.FirstConnIncrement = inc
			}
			p.stats.ConnIncrement += inc
		}
	}
	if (p.typ == frameData || p.typ == frameHeaders) && p.flags&flagEndStream != 0 {
		delete(p.streams, p.stream)
	}
	p.hdrN = 0
}

// data parses DATA payload bytes of the current stream into gRPC messages.
func (p *h2parser) data(b []byte, now int64) {
	s := p.streams[p.stream]
	if s == nil {
		s = &grpcStream{}
		p.streams[p.stream] = s
	}
	for len(b) > 0 {
		if s.remain == 0 {
			if s.prefixN == 0 {
				s.first = now
			}
			n := copy(s.prefix[s.prefixN:], b)
			s.prefixN += n
			b = b[n:]
			if s.prefixN < 5 {
				return
			}
			s.length = int64(binary.BigEndian.Uint32(s.prefix[1:]))
			s.remain, s.headN, s.prefixN = s.length, 0, 0
			if s.remain == 0 {
				p.emit(s, now)
			}
			continue
		}
		n := int(min(s.remain, int64(len(b))))
		if s.headN < headerLen {
			s.headN += copy(s.head[s.headN:], b[:n])
		}
		s.remain -= int64(n)
		b = b[n:]
		if s.remain == 0 {
			p.emit(s, now)
		}
	}
}

func (p *h2parser) emit(s *grpcStream, now int64) {
	if p.onMsg == nil || s.headN < headerLen {
		return // not one of our tensor messages (e.g. an empty reply)
	}
	p.onMsg(msgRecord{Head: decodeHeader(s.head[:]), First: s.first, Last: now, Bytes: s.length})
}

// tapConn is a net.Conn whose reads and writes are dissected.
type tapConn struct {
	net.Conn
	mu     sync.Mutex
	rd, wr *h2parser
}

// newTapConn wraps c. client is true on the dialing side. onRead and
// onWrite receive the gRPC messages read and written (either may be nil).
func newTapConn(c net.Conn, client bool, onRead, onWrite func(msgRecord)) *tapConn {
	// the client writes the connection preface, so the server reads it
	return &tapConn{Conn: c, rd: newH2Parser(!client, onRead), wr: newH2Parser(client, onWrite)}
}

func (c *tapConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		now := time.Now().UnixNano()
		c.mu.Lock()
		c.rd.feed(b[:n], now)
		c.mu.Unlock()
	}
	return n, err
}

func (c *tapConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if n > 0 {
		now := time.Now().UnixNano()
		c.mu.Lock()
		c.wr.feed(b[:n], now)
		c.mu.Unlock()
	}
	return n, err
}

// Stats returns the flow-control facts announced by this side (written)
// and by the peer (read).
func (c *tapConn) Stats() (local, peer wireStats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wr.stats, c.rd.stats
}
