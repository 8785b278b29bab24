package testbed

import (
	"bytes"
	"fmt"

	"pslab/engine/timeline"
	"pslab/engine/trace"
)

// TimelineFile is the 1-worker profile as a TensorFlow-style timeline
// (Chrome trace JSON, engine/timeline), written beside TraceFile.
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

// profileMeta is the metadata of a recorded 1-worker trace: bandwidth in
// bytes/s (0: unknown), the dataset's WIN (windowOf) and the fitted
// parsing overhead.
func profileMeta(source, network string, p *Plan, c Config, measuredWindow int64, ov Overhead) trace.Meta {
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
