package sim

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// Datadriven event-sequence tests in the style of cockroachdb/datadriven.
// Each testdata/*.txt file holds records:
//
//	<directive> key=value ...
//	<input lines>
//	----
//	<expected output, up to a blank line>
//
// Directives: "trace key=value" sets the trace for the following runs; its
// input is one op per line, "name resource bytes=N dur=S deps=a,b" (dur in
// seconds), with a line "step" between profiled steps. "run key=value"
// simulates it and prints every chunk in completion order and a summary.
// go test ./engine/sim -run DataDriven -rewrite regenerates the expected
// outputs; review the diff.
var rewrite = flag.Bool("rewrite", false, "rewrite the expected outputs of engine/sim/testdata/*.txt")

type ddRecord struct {
	pre       []string // comments and blank lines before the directive
	directive string
	input     []string
	expected  string
	line      int
}

func parseDD(t *testing.T, path string) []ddRecord {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	var recs []ddRecord
	var pre []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			pre = append(pre, l)
			continue
		}
		r := ddRecord{pre: pre, directive: l, line: i + 1}
		pre = nil
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			r.input = append(r.input, lines[i])
		}
		require.Less(t, i, len(lines), "%s:%d: missing ----", path, r.line)
		var out []string
		for i++; i < len(lines) && lines[i] != ""; i++ {
			out = append(out, lines[i])
		}
		r.expected = strings.Join(out, "\n")
		recs = append(recs, r)
	}
	return recs
}

func ddArgs(t *testing.T, where string, fields []string) map[string]string {
	m := map[string]string{}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		require.True(t, ok, "%s: bad argument %q", where, f)
		m[k] = v
	}
	return m
}

func ddFloat(t *testing.T, where, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, where)
	return v
}

func ddTrace(t *testing.T, where string, args map[string]string, input []string) *trace.Trace {
	tr := &trace.Trace{Meta: trace.Meta{Batch: 1, Servers: 1}}
	for k, v := range args {
		switch k {
		case "bandwidth":
			tr.Meta.Bandwidth = ddFloat(t, where, v)
		case "window":
			tr.Meta.Window = int64(ddFloat(t, where, v))
		case "alpha":
			tr.Meta.Alpha = ddFloat(t, where, v)
		case "beta":
			tr.Meta.Beta = ddFloat(t, where, v)
		case "servers":
			tr.Meta.Servers = int(ddFloat(t, where, v))
		default:
			t.Fatalf("%s: unknown trace argument %q", where, k)
		}
	}
	b := newStep()
	for _, l := range input {
		f := strings.Fields(l)
		if len(f) == 1 && f[0] == "step" {
			tr.Steps = append(tr.Steps, b.step())
			b = newStep()
			continue
		}
		require.GreaterOrEqual(t, len(f), 2, "%s: op line %q", where, l)
		a := ddArgs(t, where, f[2:])
		var deps []string
		if a["deps"] != "" {
			deps = strings.Split(a["deps"], ",")
		}
		var bytes int64
		var dur float64
		if a["bytes"] != "" {
			bytes = int64(ddFloat(t, where, a["bytes"]))
		}
		if a["dur"] != "" {
			dur = ddFloat(t, where, a["dur"])
		}
		b.op(f[0], f[1], bytes, dur, deps...)
	}
	tr.Steps = append(tr.Steps, b.step())
	return tr
}

func ddRun(t *testing.T, where string, tr *trace.Trace, args map[string]string) string {
	require.NotNil(t, tr, "%s: run before trace", where)
	cfg := Config{Warmup: NoWarmup}
	var err error
	for k, v := range args {
		switch k {
		case "workers":
			cfg.Workers = int(ddFloat(t, where, v))
		case "steps":
			cfg.Steps = int(ddFloat(t, where, v))
		case "seed":
			cfg.Seed = uint64(ddFloat(t, where, v))
		case "mode":
			cfg.Link.Mode, err = ParseMode(v)
		case "order":
			cfg.Link.Order, err = ParseOrder(v)
		case "overhead":
			cfg.OverheadOn, err = ParseOverheadPlacement(v)
		case "sync":
			cfg.Sync, err = ParseSync(v)
		default:
			t.Fatalf("%s: unknown run argument %q", where, k)
		}
		require.NoError(t, err, where)
	}
	var sb strings.Builder
	cfg.OnSpan = func(s Span) {
		fmt.Fprintf(&sb, "%7.3f %7.3f w%d s%d %-10s %s#%d\n", s.Start, s.End, s.Worker, s.Step, s.Resource, s.Name, s.Chunk)
	}
	r, err := Run(tr, cfg)
	if err != nil {
		return "error: " + err.Error()
	}
	fmt.Fprintf(&sb, "window (%.3f, %.3f] steps=%d events=%d steps/s=%.4f downlink-overlap=%.4f",
		r.WindowStart, r.WindowEnd, r.WindowSteps, r.Events, r.StepRate, r.DownlinkOverlap)
	return sb.String()
}

func TestDataDriven(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no testdata/*.txt")
	for _, path := range files {
		recs := parseDD(t, path)
		var tr *trace.Trace
		var out strings.Builder
		for _, r := range recs {
			where := fmt.Sprintf("%s:%d", path, r.line)
			f := strings.Fields(r.directive)
			args := ddArgs(t, where, f[1:])
			var got string
			switch f[0] {
			case "trace":
				tr = ddTrace(t, where, args, r.input)
				got = fmt.Sprintf("%d steps, %d ops", len(tr.Steps), len(tr.Steps[0].Ops))
			case "run":
				got = ddRun(t, where, tr, args)
			default:
				t.Fatalf("%s: unknown directive %q", where, f[0])
			}
			if !*rewrite {
				require.Equal(t, r.expected, got, where)
			}
			for _, l := range r.pre {
				out.WriteString(l + "\n")
			}
			out.WriteString(r.directive + "\n")
			for _, l := range r.input {
				out.WriteString(l + "\n")
			}
			out.WriteString("----\n" + got + "\n\n")
		}
		if *rewrite {
			require.NoError(t, os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644))
		}
	}
}
