package report

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/golden"
)

// Experiment is one experiment as the report shows it.
type Experiment struct {
	Spec   *experiment.Spec
	File   string // the spec file relative to the root, slash-separated
	Golden string // the golden file relative to the root
	Run    *experiment.RunFile
	Checks []CheckRow
	Claims []Claim
	Inputs []Input
	// SVG is the figure, figures/<paper>/<name>.svg without its XML prolog.
	SVG template.HTML
	// TOML is the experiment file as written.
	TOML string
	// Notes are the run's notes (the result table's provenance notes).
	Notes []string
	Count Counts
}

// Counts are check counts by source and outcome.
type Counts struct {
	Paper, Derived, Regression int
	// Missed are paper or derived claims recorded as deviations; Failed
	// are checks that do not hold on the recorded results; Inconclusive
	// are claims whose 95% interval straddles their bound.
	Missed, Failed, Inconclusive int
	// WithInterval are checks whose value the result records with an
	// interval (CheckRow.Interval).
	WithInterval int
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Paper += o.Paper
	c.Derived += o.Derived
	c.Regression += o.Regression
	c.Missed += o.Missed
	c.Failed += o.Failed
	c.Inconclusive += o.Inconclusive
	c.WithInterval += o.WithInterval
}

// Total is the number of checks.
func (c Counts) Total() int { return c.Paper + c.Derived + c.Regression }

// CheckRow is one golden check with the value the recorded results give.
type CheckRow struct {
	Name, Op, Expected, Tolerance, Got string
	Source                             string // the check's source text
	Class                              string // paper, derived or regression
	Result                             string // pass, deviation, inconclusive or fail
	// Interval is the value's interval where the result records one: a
	// 95% confidence interval (an interval check's, a metric's
	// .ci95_lo/.ci95_hi, a derived row's y_lo/y_hi) or a measured row's
	// error bar; empty for exact values and values recorded without one.
	Interval string
	Reason   string // deviation reason, or why it fails
	Note     string
	// check is the golden check (the accuracy page applies its bound to
	// other values).
	check *golden.Check
}

// Claim is one quoted source of the experiment's paper checks.
type Claim struct {
	Text   string
	Checks int
	Missed int
}

// Input is one [inputs] entry and the datasets it names (a directory
// input names every dataset under it).
type Input struct {
	Name, Path string
	Datasets   []*Dataset
}

// loadExperiment reads the spec at path with its golden file and the
// recorded results under root/figures.
func loadExperiment(root, path string) (*Experiment, error) {
	s, err := experiment.Load(path)
	if err != nil {
		return nil, err
	}
	e := &Experiment{Spec: s, File: rel(root, path), Golden: rel(root, experiment.GoldenPath(root, s))}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	e.TOML = string(raw)
	g, err := golden.Load(experiment.GoldenPath(root, s))
	if err != nil {
		return nil, fmt.Errorf("%s: golden file: %w", s.ID, err)
	}
	missing := func(err error, p string) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no recorded result %s: run `make figures` (pslab run) first", s.ID, rel(root, p))
		}
		return err
	}
	rp := experiment.RunFilePath(root, s)
	if e.Run, err = experiment.ReadRunFile(rp); err != nil {
		return nil, missing(err, rp)
	}
	if e.Run.ID != s.ID {
		return nil, fmt.Errorf("%s: run file %s is for %q", s.ID, rel(root, rp), e.Run.ID)
	}
	ap := experiment.FigurePath(root, s, ".arrow")
	t, err := dataset.Read(ap, dataset.ResultSchema, dataset.Allocator)
	if err != nil {
		return nil, missing(err, ap)
	}
	sp := experiment.FigurePath(root, s, ".svg")
	svg, err := os.ReadFile(sp)
	if err != nil {
		return nil, missing(err, sp)
	}
	if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
		svg = svg[i:]
	}
	e.SVG = template.HTML(svg) // rendered by gonum/plot from this repository's results
	if t.Provenance.Notes != "" {
		e.Notes = strings.Split(t.Provenance.Notes, "\n")
	}
	res := &experiment.Result{Table: t, Metrics: map[string]float64{}}
	for k, v := range e.Run.Metrics {
		res.Metrics[k] = float64(v)
	}
	e.evaluate(g, res)
	return e, nil
}

// evaluate fills the checks table, the claims and the counts.
func (e *Experiment) evaluate(g *golden.File, res *experiment.Result) {
	claims := map[string]*Claim{}
	for _, o := range g.Evaluate(res.Lookup) {
		c := o.Check
		row := CheckRow{Name: c.Name(), Op: c.Op, Expected: num(c.Expected), Source: c.Source,
			Class: sourceClass(c.Source), Note: c.Note, Got: "—", check: c}
		if o.Found {
			row.Got = num(o.Got)
		}
		switch lo, hi, origin, ok := res.Interval(c.Metric, c.Series, c.X, c.Category); {
		case o.Verdict != "": // judged on its 95% interval
			row.Interval = "[" + num(o.Lo) + ", " + num(o.Hi) + "] 95% CI"
		case ok && origin == dataset.Measured:
			row.Interval = "[" + num(lo) + ", " + num(hi) + "] measured error bar"
		case ok:
			row.Interval = "[" + num(lo) + ", " + num(hi) + "] 95% CI"
		}
		if row.Interval != "" {
			e.Count.WithInterval++
		}
		switch c.Op {
		case "lt", "gt":
			row.Tolerance = "strict"
		default:
			row.Tolerance = "± " + num(c.Allowed())
			if c.TolKind == "rel" {
				row.Tolerance += " (" + num(100*c.Tol) + "% rel.)"
			}
		}
		switch {
		case o.Deviates:
			row.Result, row.Reason = "deviation", o.Reason
			e.Count.Missed++
		case o.Pass && o.Verdict == golden.Inconclusive:
			row.Result, row.Reason = "inconclusive", o.Reason
			e.Count.Inconclusive++
		case o.Pass:
			row.Result = "pass"
		default:
			row.Result, row.Reason = "fail", o.Message
			e.Count.Failed++
		}
		switch row.Class {
		case "paper":
			e.Count.Paper++
			cl := claims[c.Source]
			if cl == nil {
				cl = &Claim{Text: c.Source}
				claims[c.Source] = cl
			}
			cl.Checks++
			if o.Deviates || !o.Pass {
				cl.Missed++
			}
		case "derived":
			e.Count.Derived++
		default:
			e.Count.Regression++
		}
		e.Checks = append(e.Checks, row)
	}
	for _, c := range claims {
		e.Claims = append(e.Claims, *c)
	}
	sort.Slice(e.Claims, func(i, j int) bool { return e.Claims[i].Text < e.Claims[j].Text })
}

// sourceClass is "paper", "derived" or "regression".
func sourceClass(src string) string {
	switch {
	case strings.HasPrefix(src, "paper"):
		return "paper"
	case strings.HasPrefix(src, "derived"):
		return "derived"
	}
	return "regression"
}

// num formats a float in at most 6 significant digits.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// rel returns p relative to root with forward slashes.
func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		p = r
	}
	return filepath.ToSlash(p)
}

// Command is the command that reproduces the experiment.
func (e *Experiment) Command() string { return "go run ./cmd/pslab run " + e.File }

// Elapsed is the recorded run time, formatted ("not recorded" when the run
// file has none).
func (e *Experiment) Elapsed() string {
	if e.Run.ElapsedS <= 0 {
		return "not recorded"
	}
	return strconv.FormatFloat(e.Run.ElapsedS, 'g', -1, 64) + " s"
}
