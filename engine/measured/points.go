package measured

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
)

// PointsFile is the per-point judgement a testbed configuration directory
// holds since accounting version 3 (engine/testbed/collection,
// PointsSchema): one row per W and dilation, with a verdict.
const PointsFile = "points.arrow"

// VerdictHolds is the verdict of a point that holds every limit, its
// interval and, where stretched, dilation (engine/testbed doc, "Judging a
// point").
const VerdictHolds = "holds"

// Point is what the testbed judged of one unstretched measured point.
type Point struct {
	// Verdict is VerdictHolds, "fails" or "unjudged".
	Verdict string
	// CI is the relative half-width of the 95% confidence interval of
	// the throughput over independent repetitions (Student's t); NaN when
	// undefined (one repetition).
	CI float64
	// Repetitions is the number of independent runs.
	Repetitions int
	// Modes is the number of operating modes found: 0 untested (fewer than
	// 4 runs), 1 unimodal, 2 or more: the runs settle in distinct modes
	// (modes.arrow), so the mean is a mixture no single run produced.
	Modes int
}

// Holds reports Verdict == VerdictHolds.
func (p Point) Holds() bool { return p.Verdict == VerdictHolds }

// ReadPoints reads the unstretched points (dilation 1) of a points table
// by W: its columns workers, repetitions, modes (int64), dilation,
// ci95_rel (float64) and verdict (string); a negative ci95_rel is
// undefined.
func ReadPoints(t *dataset.Table) (map[int]Point, error) {
	if err := requireColumns(t, PointsFile, []column{{"workers", dataset.Int64}, {"dilation", dataset.Float64}, {"verdict", dataset.String},
		{"repetitions", dataset.Int64}, {"modes", dataset.Int64}, {"ci95_rel", dataset.Float64}}); err != nil {
		return nil, err
	}
	out := map[int]Point{}
	ws, ds, vs := t.Ints("workers"), t.Floats("dilation"), t.Strings("verdict")
	reps, modes, ci := t.Ints("repetitions"), t.Ints("modes"), t.Floats("ci95_rel")
	for i := range ws {
		if ds[i] != 1 {
			continue
		}
		if _, dup := out[int(ws[i])]; dup {
			return nil, fmt.Errorf("%s: W = %d twice at dilation 1", PointsFile, ws[i])
		}
		p := Point{Verdict: vs[i], CI: ci[i], Repetitions: int(reps[i]), Modes: int(modes[i])}
		if !(p.CI >= 0) {
			p.CI = math.NaN()
		}
		out[int(ws[i])] = p
	}
	return out, nil
}

// ModesFile holds the operating modes of the points that have them
// (engine/testbed/collection, ModesSchema).
const ModesFile = "modes.arrow"

// Mode is one operating mode of a measured point: a cluster of its runs.
type Mode struct {
	// Throughput is the mean over the mode's runs, examples/s.
	Throughput float64
	// Frequency is the share of the point's runs in the mode.
	Frequency float64
	// CI is the relative 95% half-width over the mode's runs; NaN with
	// one run.
	CI float64
	// Synchrony is the mean synchrony of its runs' step starts (1 workers
	// in lockstep, 0 interleaved; NaN undefined): the mode's signature.
	Synchrony float64
}

// ReadModes reads the modes of the unstretched points (dilation 1) of a
// modes table by W, lowest throughput first: its columns workers, mode
// (int64), dilation, throughput, frequency, ci95_rel and synchrony
// (float64); negative ci95_rel and synchrony are undefined.
func ReadModes(t *dataset.Table) (map[int][]Mode, error) {
	if err := requireColumns(t, ModesFile, []column{{"workers", dataset.Int64}, {"mode", dataset.Int64}, {"dilation", dataset.Float64},
		{"throughput", dataset.Float64}, {"frequency", dataset.Float64}, {"ci95_rel", dataset.Float64}, {"synchrony", dataset.Float64}}); err != nil {
		return nil, err
	}
	out := map[int][]Mode{}
	ws, idx, ds := t.Ints("workers"), t.Ints("mode"), t.Floats("dilation")
	x, f, ci, syn := t.Floats("throughput"), t.Floats("frequency"), t.Floats("ci95_rel"), t.Floats("synchrony")
	for i := range ws {
		if ds[i] != 1 {
			continue
		}
		w := int(ws[i])
		if int(idx[i]) != len(out[w]) {
			return nil, fmt.Errorf("%s: W = %d mode %d out of order (want %d)", ModesFile, w, idx[i], len(out[w]))
		}
		m := Mode{Throughput: x[i], Frequency: f[i], CI: ci[i], Synchrony: syn[i]}
		if !(m.CI >= 0) {
			m.CI = math.NaN()
		}
		if !(m.Synchrony >= 0) {
			m.Synchrony = math.NaN()
		}
		out[w] = append(out[w], m)
	}
	return out, nil
}

// column is a column a reader needs: its name and type.
type column struct {
	name string
	typ  dataset.Type
}

// requireColumns returns an error naming file unless t has every column
// of cols with its type.
func requireColumns(t *dataset.Table, file string, cols []column) error {
	for _, c := range cols {
		i := t.Schema.Index(c.name)
		if i < 0 || t.Schema.Columns[i].Type != c.typ {
			return fmt.Errorf("%s: no %s column %q", file, c.typ, c.name)
		}
	}
	return nil
}
