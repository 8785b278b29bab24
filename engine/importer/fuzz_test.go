package importer

import (
	"bytes"
	"testing"

	"pslab/engine/dataset"
)

// FuzzReadPhilly: no input panics, and an accepted input gives a valid,
// non-empty table. Seeds: testdata/fuzz/FuzzReadPhilly.
func FuzzReadPhilly(f *testing.F) {
	f.Add([]byte("timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32<<10 {
			return // bounded work per input
		}
		tab, err := ReadPhilly(bytes.NewReader(data), "fuzz.csv", dataset.Provenance{})
		if err != nil {
			return
		}
		if tab.Len() == 0 {
			t.Fatal("accepted an input without jobs")
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("accepted an invalid table: %v", err)
		}
	})
}

// FuzzReadMeasured: no input panics, and an accepted input gives a valid,
// non-empty table. Seeds: testdata/fuzz/FuzzReadMeasured.
func FuzzReadMeasured(f *testing.F) {
	f.Add([]byte("workers,throughput[examples/s],window[MiB]\n1,10.5,28\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32<<10 {
			return // bounded work per input
		}
		opt := MeasuredOptions{Model: "m", Batch: 8, Sync: "asp"}
		tab, err := ReadMeasured(bytes.NewReader(data), "fuzz.csv", opt, dataset.Provenance{})
		if err != nil {
			return
		}
		if tab.Len() == 0 {
			t.Fatal("accepted an input without measurements")
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("accepted an invalid table: %v", err)
		}
	})
}
