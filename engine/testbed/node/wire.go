package node

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Wire format. Every message is raw bytes (no protobuf): gRPC carries them
// with rawCodec. Tensor messages start with a 13-byte header, which the
// tap dissector reads to attribute bytes to a tensor and a step:
//
//	kind u8 | worker u32 | step u32 | tensor u32     (little-endian)
//
// then, by kind:
//
//	kindPull    (worker → PS)  nothing
//	kindParams  (PS → worker)  float32 parameters
//	kindPush    (worker → PS)  float32 gradient
//	kindPullAll (worker → PS)  nothing (tensor = allTensors): the PS sends
//	                           its tensors in the job's order on the stream
//
// Acks of pushes are ackLen bytes per tensor: tensor u32 and five int64
// PS-clock times (decoded, update start, update end, first byte, last
// byte; unix ns, 0 when unknown).
const (
	headerLen = 13
	ackLen    = 4 + 5*8

	kindPull    = 1
	kindParams  = 2
	kindPush    = 3
	kindPullAll = 4

	allTensors = math.MaxUint32
)

// header starts every tensor message.
type header struct {
	Kind   uint8
	Worker uint32
	Step   uint32
	Tensor uint32
}

func (h header) put(b []byte) {
	b[0] = h.Kind
	binary.LittleEndian.PutUint32(b[1:], h.Worker)
	binary.LittleEndian.PutUint32(b[5:], h.Step)
	binary.LittleEndian.PutUint32(b[9:], h.Tensor)
}

func decodeHeader(b []byte) header {
	return header{Kind: b[0], Worker: binary.LittleEndian.Uint32(b[1:]),
		Step: binary.LittleEndian.Uint32(b[5:]), Tensor: binary.LittleEndian.Uint32(b[9:])}
}

// encodeTensor returns a message of header h followed by the float32
// values v, encoded little-endian: the serialization of a tensor.
func encodeTensor(h header, v []float32) []byte {
	b := make([]byte, headerLen+4*len(v))
	h.put(b)
	p := b[headerLen:]
	for i, x := range v {
		binary.LittleEndian.PutUint32(p[4*i:], math.Float32bits(x))
	}
	return b
}

// decodeTensor parses a tensor message into dst, whose length must match:
// the parsing that TensorFlow does when a tensor arrives.
func decodeTensor(b []byte, want uint8, dst []float32) (header, error) {
	if len(b) < headerLen {
		return header{}, fmt.Errorf("testbed: short message (%d bytes)", len(b))
	}
	h := decodeHeader(b)
	if h.Kind != want {
		return h, fmt.Errorf("testbed: message kind %d, want %d", h.Kind, want)
	}
	p := b[headerLen:]
	if len(p) != 4*len(dst) {
		return h, fmt.Errorf("testbed: tensor %d: %d payload bytes, want %d", h.Tensor, len(p), 4*len(dst))
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
	}
	return h, nil
}

// ack is the PS's report on one pushed gradient (PS clock, unix ns).
type ack struct {
	Tensor                    uint32
	Decoded, UpdStart, UpdEnd int64
	FirstByte, LastByte       int64
}

func encodeAcks(as []ack) []byte {
	b := make([]byte, ackLen*len(as))
	for i, a := range as {
		p := b[ackLen*i:]
		binary.LittleEndian.PutUint32(p, a.Tensor)
		for j, v := range []int64{a.Decoded, a.UpdStart, a.UpdEnd, a.FirstByte, a.LastByte} {
			binary.LittleEndian.PutUint64(p[4+8*j:], uint64(v))
		}
	}
	return b
}

func decodeAcks(b []byte) ([]ack, error) {
	if len(b)%ackLen != 0 {
		return nil, fmt.Errorf("testbed: ack message of %d bytes", len(b))
	}
	as := make([]ack, len(b)/ackLen)
	for i := range as {
		p := b[ackLen*i:]
		v := func(j int) int64 { return int64(binary.LittleEndian.Uint64(p[4+8*j:])) }
		as[i] = ack{Tensor: binary.LittleEndian.Uint32(p), Decoded: v(0), UpdStart: v(1), UpdEnd: v(2), FirstByte: v(3), LastByte: v(4)}
	}
	return as, nil
}

func encodeInt64(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

func decodeInt64(b []byte) (int64, error) {
	if len(b) != 8 {
		return 0, fmt.Errorf("testbed: int64 message of %d bytes", len(b))
	}
	return int64(binary.LittleEndian.Uint64(b)), nil
}

// wireMsg is what rawCodec marshals: B is sent as is; on receipt, Decode
// (if set) parses the bytes, otherwise they are copied into B.
type wireMsg struct {
	B      []byte
	Decode func([]byte) error
}

// rawCodec is a gRPC codec of raw bytes (encoding.Codec), forced on every
// call and on the server, so nothing is registered globally.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	m, ok := v.(*wireMsg)
	if !ok {
		return nil, fmt.Errorf("testbed: codec cannot marshal %T", v)
	}
	return m.B, nil
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	m, ok := v.(*wireMsg)
	if !ok {
		return fmt.Errorf("testbed: codec cannot unmarshal into %T", v)
	}
	if m.Decode != nil {
		return m.Decode(data)
	}
	m.B = append(m.B[:0], data...)
	return nil
}

func (rawCodec) Name() string { return "pslab-raw" }
