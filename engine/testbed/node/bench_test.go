package node

import (
	"testing"
)

// BenchmarkTapFeed dissects a 1 MB tensor message in 16 KiB DATA frames
// read 32 KiB at a time (the per-byte cost the tap adds to a profiled
// transfer).
func BenchmarkTapFeed(b *testing.B) {
	msg := grpcMsg(encodeTensor(header{Kind: kindParams, Tensor: 1}, make([]float32, 1<<18)))
	var wire []byte
	for off := 0; off < len(msg); off += 16 * 1024 {
		wire = append(wire, frame(frameData, 0, 1, msg[off:min(off+16*1024, len(msg))])...)
	}
	wire = append(wire, frame(frameHeaders, flagEndStream, 1, []byte("trailers"))...)
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	n := 0
	p := newH2Parser(false, func(msgRecord) { n++ })
	for b.Loop() {
		for off := 0; off < len(wire); off += 32 * 1024 {
			p.feed(wire[off:min(off+32*1024, len(wire))], int64(off))
		}
	}
	if n == 0 {
		b.Fatal("no message dissected")
	}
}

// BenchmarkEncodeTensor serializes 1 MB of float32 parameters.
func BenchmarkEncodeTensor(b *testing.B) {
	v := make([]float32, 1<<18)
	b.SetBytes(4 << 18)
	b.ReportAllocs()
	for b.Loop() {
		encodeTensor(header{Kind: kindParams}, v)
	}
}

// BenchmarkDecodeTensor parses 1 MB of float32 parameters (the receiver's
// parsing, part of the measured overhead α).
func BenchmarkDecodeTensor(b *testing.B) {
	v := make([]float32, 1<<18)
	msg := encodeTensor(header{Kind: kindParams}, v)
	b.SetBytes(4 << 18)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeTensor(msg, kindParams, v); err != nil {
			b.Fatal(err)
		}
	}
}
