package dataset

import (
	"fmt"
	"strconv"

	"pslab/engine/trace"
)

// Trace metadata keys stored in the provenance Extra map.
const (
	metaModel     = "model"
	metaPlatform  = "platform"
	metaBatch     = "batch"
	metaBandwidth = "bandwidth_bytes_per_s"
	metaWindow    = "window_bytes"
	metaAlpha     = "overhead_alpha_s_per_byte"
	metaBeta      = "overhead_beta_s"
	metaServers   = "servers"
)

// FromTrace converts a trace to a table of TraceSchema. The trace metadata
// goes into the provenance.
func FromTrace(tr *trace.Trace, p Provenance) *Table {
	if p.Extra == nil {
		p.Extra = map[string]string{}
	}
	m := tr.Meta
	p.Extra[metaModel] = m.Model
	p.Extra[metaPlatform] = m.Platform
	p.Extra[metaBatch] = strconv.Itoa(m.Batch)
	p.Extra[metaBandwidth] = strconv.FormatFloat(m.Bandwidth, 'g', -1, 64)
	p.Extra[metaWindow] = strconv.FormatInt(m.Window, 10)
	p.Extra[metaAlpha] = strconv.FormatFloat(m.Alpha, 'g', -1, 64)
	p.Extra[metaBeta] = strconv.FormatFloat(m.Beta, 'g', -1, 64)
	p.Extra[metaServers] = strconv.Itoa(m.Servers)
	if p.Source == "" {
		p.Source = m.Source
	}
	t := NewTable(TraceSchema, p)
	for si, s := range tr.Steps {
		for oi := range s.Ops {
			op := &s.Ops[oi]
			kind := "compute"
			if op.IsComm() {
				kind = "comm"
			}
			// Types match the schema by construction.
			_ = t.Append(si, oi, op.Name, kind, op.Resource.Kind.String(), op.Resource.PS, op.Start, op.End, op.Bytes, op.Deps)
		}
	}
	return t
}

// ToTrace converts a table of TraceSchema back to a trace and validates it
// (cycles, dangling dependencies, negative durations, unreachable ops).
func ToTrace(t *Table) (*trace.Trace, error) {
	steps, ops := t.Ints("step"), t.Ints("op")
	names, kinds, res := t.Strings("name"), t.Strings("kind"), t.Strings("resource")
	ps, start, end := t.Ints("ps"), t.Ints("start_ns"), t.Ints("end_ns")
	bytes, deps := t.Ints("bytes"), t.Lists("deps")
	tr := &trace.Trace{}
	for r := range steps {
		if int(steps[r]) != len(tr.Steps)-1 {
			if int(steps[r]) != len(tr.Steps) {
				return nil, fmt.Errorf("row %d: step %d out of order (want %d or %d)", r, steps[r], len(tr.Steps)-1, len(tr.Steps))
			}
			tr.Steps = append(tr.Steps, trace.Step{})
		}
		s := &tr.Steps[len(tr.Steps)-1]
		if int(ops[r]) != len(s.Ops) {
			return nil, fmt.Errorf("row %d: op %d out of order in step %d (want %d)", r, ops[r], steps[r], len(s.Ops))
		}
		k, err := trace.ParseKind(res[r])
		if err != nil {
			return nil, fmt.Errorf("column \"resource\" row %d: %w", r, err)
		}
		if (kinds[r] == "comm") != k.IsLink() {
			return nil, fmt.Errorf("row %d: kind %q does not match resource %q", r, kinds[r], res[r])
		}
		s.Ops = append(s.Ops, trace.Op{Name: names[r], Resource: trace.Resource{Kind: k, PS: int(ps[r])},
			Start: start[r], End: end[r], Bytes: bytes[r], Deps: deps[r]})
	}
	x := t.Provenance.Extra
	atoi := func(k string) int { v, _ := strconv.Atoi(x[k]); return v }
	atof := func(k string) float64 { v, _ := strconv.ParseFloat(x[k], 64); return v }
	tr.Meta = trace.Meta{Source: t.Provenance.Source, Model: x[metaModel], Platform: x[metaPlatform],
		Batch: atoi(metaBatch), Bandwidth: atof(metaBandwidth), Window: int64(atoi(metaWindow)),
		Alpha: atof(metaAlpha), Beta: atof(metaBeta), Servers: atoi(metaServers)}
	if err := tr.Validate(); err != nil {
		return nil, err
	}
	return tr, nil
}
