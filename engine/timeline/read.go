package timeline

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"pslab/engine/trace"
)

// Report summarizes an import.
type Report struct {
	Files  int // timelines read
	Counts     // what the step readers saw, summed over files
	Steps  int // steps imported
	// Ops, Downlinks, Uplinks, WorkerOps and PSOps count the ops of one
	// step of the imported trace.
	Ops, Downlinks, Uplinks, WorkerOps, PSOps int
	// DownBytes and UpBytes are the bytes transferred per step.
	DownBytes, UpBytes int64
}

// otherData is the trace metadata a timeline carries in its top-level
// "otherData" object (written by Writer; optional on import).
type otherData struct {
	Source    string  `json:"source,omitempty"`
	Model     string  `json:"model,omitempty"`
	Platform  string  `json:"platform,omitempty"`
	Batch     int     `json:"batch,omitempty"`
	Bandwidth float64 `json:"bandwidth_bytes_per_s,omitempty"`
	Window    int64   `json:"window_bytes,omitempty"`
	Alpha     float64 `json:"overhead_alpha_s_per_byte,omitempty"`
	Beta      float64 `json:"overhead_beta_s,omitempty"`
	Servers   int     `json:"servers,omitempty"`
}

func (o otherData) meta() trace.Meta {
	return trace.Meta{Source: o.Source, Model: o.Model, Platform: o.Platform, Batch: o.Batch,
		Bandwidth: o.Bandwidth, Window: o.Window, Alpha: o.Alpha, Beta: o.Beta, Servers: o.Servers}
}

// Importer assembles the steps of one or more timelines into a trace. The
// first step fixes the op order; the ops of every later step, matched by
// name, are put in that order, so files whose lanes list ops in a
// different order per step still give a trace of identical steps.
type Importer struct {
	tr     trace.Trace
	order  map[string]int32
	meta   *trace.Meta // from the first file with otherData
	report Report
}

// Add reads every step of the timeline in r (name is used in errors),
// gunzipping it first if it starts with the gzip magic (.json.gz).
func (im *Importer) Add(r io.Reader, name string) error {
	r, err := gunzip(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	sr := NewStepReader(r, name)
	for {
		step, err := sr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if step, err = im.canonical(step); err != nil {
			return fmt.Errorf("%s: step %d: %w", name, len(im.tr.Steps), err)
		}
		im.tr.Steps = append(im.tr.Steps, step)
	}
	c := sr.Counts()
	im.report.Files++
	im.report.Events += c.Events
	im.report.Skipped += c.Skipped
	im.report.Dropped += c.Dropped
	im.report.Gated += c.Gated
	im.report.Unresolved += c.Unresolved
	if raw := sr.Top("otherData"); raw != nil {
		var od otherData
		if err := json.Unmarshal(raw, &od); err != nil {
			return fmt.Errorf("%s: otherData: %v", name, err)
		}
		m := od.meta()
		switch {
		case im.meta == nil:
			im.meta = &m
		case *im.meta != m:
			return fmt.Errorf("%s: otherData %+v differs from the first file's %+v", name, m, *im.meta)
		}
	}
	return nil
}

// canonical reorders a step to the first step's op order.
func (im *Importer) canonical(s trace.Step) (trace.Step, error) {
	if im.order == nil {
		im.order = make(map[string]int32, len(s.Ops))
		for i := range s.Ops {
			im.order[s.Ops[i].Name] = int32(i)
		}
		return s, nil
	}
	if len(s.Ops) != len(im.order) {
		return s, fmt.Errorf("%d ops, the first step has %d", len(s.Ops), len(im.order))
	}
	perm := make([]int32, len(s.Ops))
	out := trace.Step{Ops: make([]trace.Op, len(s.Ops))}
	for i := range s.Ops {
		j, ok := im.order[s.Ops[i].Name]
		if !ok {
			return s, fmt.Errorf("op %q is not in the first step", s.Ops[i].Name)
		}
		perm[i] = j
	}
	for i := range s.Ops {
		op := s.Ops[i]
		for k, d := range op.Deps {
			op.Deps[k] = perm[d]
		}
		out.Ops[perm[i]] = op
	}
	return out, nil
}

// Trace returns the assembled trace, validated. Meta is the first file's
// otherData overridden by every non-zero field of override; Servers
// defaults to one more than the largest PS index; Source defaults to
// the file names.
func (im *Importer) Trace(override trace.Meta, names []string) (*trace.Trace, Report, error) {
	tr := im.tr
	if im.meta != nil {
		tr.Meta = *im.meta
	}
	merge(&tr.Meta, override)
	if tr.Meta.Source == "" {
		tr.Meta.Source = strings.Join(names, ", ")
	}
	if tr.Meta.Servers == 0 && len(tr.Steps) > 0 {
		for _, op := range tr.Steps[0].Ops {
			tr.Meta.Servers = max(tr.Meta.Servers, op.Resource.PS+1)
		}
	}
	rep := im.report
	rep.Steps = len(tr.Steps)
	if err := tr.Validate(); err != nil {
		return nil, rep, fmt.Errorf("%s: %w", strings.Join(names, ", "), err)
	}
	for _, op := range tr.Steps[0].Ops {
		rep.Ops++
		switch op.Resource.Kind {
		case trace.Downlink:
			rep.Downlinks++
			rep.DownBytes += op.Bytes
		case trace.Uplink:
			rep.Uplinks++
			rep.UpBytes += op.Bytes
		case trace.Worker:
			rep.WorkerOps++
		case trace.PS:
			rep.PSOps++
		}
	}
	return &tr, rep, nil
}

func merge(m *trace.Meta, o trace.Meta) {
	if o.Source != "" {
		m.Source = o.Source
	}
	if o.Platform != "" {
		m.Platform = o.Platform
	}
	if o.Model != "" {
		m.Model = o.Model
	}
	if o.Batch != 0 {
		m.Batch = o.Batch
	}
	if o.Bandwidth != 0 {
		m.Bandwidth = o.Bandwidth
	}
	if o.Window != 0 {
		m.Window = o.Window
	}
	if o.Alpha != 0 {
		m.Alpha = o.Alpha
	}
	if o.Beta != 0 {
		m.Beta = o.Beta
	}
	if o.Servers != 0 {
		m.Servers = o.Servers
	}
}

// Read imports one timeline from r. Meta fields set in override win over
// the file's otherData.
func Read(r io.Reader, name string, override trace.Meta) (*trace.Trace, Report, error) {
	var im Importer
	if err := im.Add(r, name); err != nil {
		return nil, im.report, err
	}
	return im.Trace(override, []string{name})
}

// ReadFiles imports the timelines at paths, in order, as one trace.
func ReadFiles(paths []string, override trace.Meta) (*trace.Trace, Report, error) {
	var im Importer
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, im.report, err
		}
		err = im.Add(f, p)
		f.Close()
		if err != nil {
			return nil, im.report, err
		}
	}
	return im.Trace(override, paths)
}

// gunzip returns r, decompressed if it starts with the gzip magic bytes.
func gunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, nil
	}
	return br, nil
}
