package dataset

import (
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
)

// FuzzDecode: no bytes make Decode or DecodeArrow panic or exhaust memory, whichever
// schema is asked for, and an accepted file is a valid table that encodes
// again. Seeds: testdata/fuzz/FuzzDecode, a few rows of a real file of
// every schema (trace, testbed steps/runs/phases, measurement, Philly
// jobs, layer profile, instances, a reported table, a result, a Kineto
// import), each as written before content digests (refused for want of
// one) and with its digest (<name>_digest, read through verifyDigest), and
// the corrupt footer fuzzing found, without and with the start marker.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("00000000000000000000000000\x10\x00\x00\x00ARROW1"))
	f.Add([]byte("ARROW1\x0000000000000000000000\x10\x00\x00\x00ARROW1"))
	schemas := []*Schema{nil, TraceSchema, MeasurementSchema, ResultSchema, PhasesSchema, InstanceSchema}
	mem := memory.NewGoAllocator()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256<<10 {
			return // bounded work per input
		}
		for _, s := range schemas {
			tab, err := Decode(data, s, mem)
			if err != nil {
				continue
			}
			if err := tab.Validate(); err != nil {
				t.Fatalf("schema %v: accepted an invalid table: %v", s, err)
			}
			if _, err := Encode(tab, mem); err != nil {
				t.Fatalf("schema %v: cannot encode an accepted table: %v", s, err)
			}
		}
		// DecodeArrow (pslab export's reader): every value of an accepted
		// table reads without a panic.
		if at, err := DecodeArrow(data, mem); err == nil {
			for c := 0; c < int(at.NumCols()); c++ {
				for _, chunk := range at.Column(c).Data().Chunks() {
					for r := 0; r < chunk.Len(); r++ {
						_ = chunk.ValueStr(r)
					}
				}
			}
			at.Release()
		}
	})
}
