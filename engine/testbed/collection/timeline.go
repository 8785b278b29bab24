package collection

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/atomicfile"
	"pslab/engine/dataset"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/training"
	"pslab/engine/timeline"
	"pslab/engine/trace"
)

// TimelineFile is the 1-worker profile as a TensorFlow-style timeline
// (Chrome trace JSON, engine/timeline), written beside TraceFile. It is a
// pure derivation of TraceFile and is not committed (.gitignore): the
// timelines of one collection are 69 MB against 38 MB of traces, and
// `pslab testbed timeline dir...` writes them again from trace.arrow.
const TimelineFile = "timeline.json"

// EncodeTimeline returns tr as a TensorFlow-style timeline
// (timeline.Write): the ops, resources, bytes, dependencies, metadata
// and nanosecond times of the trace, which timeline.Read, `pslab import
// tf-timeline` and `pslab predict` read back. It is the format a
// TensorFlow profile of a real cluster comes in, so the testbed's own
// profiles exercise the same import path (the round trip is tested).
func EncodeTimeline(tr *trace.Trace) ([]byte, error) {
	var buf bytes.Buffer
	if err := timeline.Write(&buf, tr); err != nil {
		return nil, fmt.Errorf("testbed: timeline: %w", err)
	}
	return buf.Bytes(), nil
}

// WriteTimeline writes dir/TimelineFile from dir/TraceFile.
func WriteTimeline(dir string) error {
	in := filepath.Join(dir, TraceFile)
	t, err := dataset.Read(in, dataset.TraceSchema, memory.NewGoAllocator())
	if err != nil {
		return err
	}
	tr, err := dataset.ToTrace(t)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	b, err := EncodeTimeline(tr)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	return atomicfile.Write(filepath.Join(dir, TimelineFile), b)
}

// ProfileMeta is the metadata of a recorded 1-worker trace: bandwidth in
// bytes/s (0: unknown), the dataset's WIN (windowOf) and the fitted
// parsing overhead.
func ProfileMeta(source, network string, p *training.Plan, c config.Config, measuredWindow int64, ov analysis.Overhead) trace.Meta {
	return trace.Meta{
		Source:    source,
		Platform:  platform(network),
		Model:     p.Profile.Model,
		Batch:     p.Batch,
		Bandwidth: c.Bandwidth(),
		Window:    windowOf(c, measuredWindow),
		Alpha:     ov.Alpha,
		Beta:      ov.Beta,
		Servers:   c.Servers,
	}
}
