package shard

import (
	"bytes"
	"encoding/gob"
	"strings"
	"testing"

	"pslab/engine/predict"
	"pslab/engine/sim"
)

// FuzzParseParts: no predict.gob bytes make ParseParts panic, every
// refusal starts with the file's name, and parts it accepts join
// (JoinPredictions, as pslab merge does) into a sweep or an error, never
// a panic. Seeds: the parts of a two-bandwidth sweep, whole and cut short.
func FuzzParseParts(f *testing.F) {
	var seed bytes.Buffer
	parts := []Part{
		{Bandwidth: 0, Prediction: &predict.Prediction{Workers: []int{1, 2}, Batch: 1,
			Curves: []predict.Curve{{Model: predict.Simulator, Throughput: []float64{10, 19}, Lo: []float64{9, 18}, Hi: []float64{11, 20},
				Converged: []bool{true, true}, Replications: []int{10, 12}, Steps: []int{10, 10}, Modes: [][]sim.OperatingMode{nil, nil}}}}},
		{Bandwidth: 1, Prediction: &predict.Prediction{Workers: []int{1, 2}, Batch: 1, Notes: []string{"n"},
			Curves: []predict.Curve{{Model: predict.Cynthia, Throughput: []float64{12, 23}}}}},
	}
	if err := gob.NewEncoder(&seed).Encode(parts); err != nil {
		f.Fatal(err)
	}
	f.Add(seed.Bytes())
	f.Add(seed.Bytes()[:seed.Len()/2])
	const name = "shard-0-of-2: predict.gob"
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 64<<10 {
			return // bounded work per input
		}
		got, err := ParseParts(b, name)
		if err != nil {
			if !strings.HasPrefix(err.Error(), name+": ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		nbw := 0
		for _, p := range got {
			if p.Bandwidth >= 0 && p.Bandwidth < 8 {
				nbw = max(nbw, p.Bandwidth+1)
			}
		}
		_, _ = JoinPredictions(nbw, []int{1, 2}, got)
	})
}
