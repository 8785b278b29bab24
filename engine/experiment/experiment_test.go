package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

const goodSpec = `id = "beyond-toy"
title = "Toy"
paper = "beyond"
kind = "line"
description = "a line"
status = "reproduced"
seed = 7

[sweep]
var = "x"
from = 1
to = 3

[plot]
x_label = "x"
y_label = "y (s)"

[params]
slope = 2.0
`

const goodGolden = `[[check]]
series = "line"
x = 3
expected = 6
tol = 1e-12
source = "derived: slope * x"

[[check]]
metric = "draw"
expected = 0
tol = 1e-9
tol_kind = "rel"
source = "regression"
`

type lineParams struct{ Slope float64 }

func registry() Registry {
	return Registry{"line": {Run: func(_ context.Context, e *Env) (*Result, error) {
		var p lineParams
		if err := e.Params(&p); err != nil {
			return nil, err
		}
		if p.Slope < 0 {
			return nil, e.Errorf("slope", "negative slope %v", p.Slope)
		}
		r := NewResult()
		for _, x := range e.Spec.Sweep.Points() {
			r.Point("line", "toy", dataset.Derived, x, p.Slope*x)
		}
		r.Metric("draw", e.Rand().Float64())
		return r, nil
	}}}
}

// repo lays out a repository with one experiment and returns its root and
// spec path.
func repo(t *testing.T, spec, gold string) (string, string) {
	root := t.TempDir()
	sp := filepath.Join(root, "experiments", "beyond", "toy.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(sp), 0o755))
	require.NoError(t, os.WriteFile(sp, []byte(spec), 0o644))
	if gold != "" {
		gp := filepath.Join(root, "golden", "beyond", "toy.toml")
		require.NoError(t, os.MkdirAll(filepath.Dir(gp), 0o755))
		require.NoError(t, os.WriteFile(gp, []byte(gold), 0o644))
	}
	return root, sp
}

func TestLoadErrorsAreOneLineWithFileAndLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		edit func(string) string
		want string
	}{
		{func(s string) string { return strings.Replace(s, "seed = 7", "sede = 7", 1) }, `toy.toml:7: unknown field "sede"`},
		{func(s string) string { return strings.Replace(s, "seed = 7", "seed = \"7\"", 1) }, `toy.toml:7: field "seed"`},
		{func(s string) string { return strings.Replace(s, "status = \"reproduced\"\n", "", 1) }, `missing required field "status"`},
		{func(s string) string { return strings.Replace(s, "title = \"Toy\"", "title = \"Toy", 1) }, `toy.toml:2:`},
		{func(s string) string { return strings.Replace(s, "beyond-toy", "beyond-other", 1) }, `toy.toml:1: id "beyond-other" does not match the file name`},
		{func(s string) string { return strings.Replace(s, "y (s)\"", "y (s)\"\ntype = \"pie\"", 1) }, `plot type "pie"`},
		{func(s string) string { return strings.Replace(s, "[plot]", "[plot]\ncolour = 1", 1) }, `toy.toml:15: unknown field "plot.colour"`},
	}
	for _, c := range cases {
		_, sp := repo(t, c.edit(goodSpec), "")
		_, err := Load(sp)
		require.Error(t, err)
		require.Contains(t, err.Error(), c.want)
		require.NotContains(t, err.Error(), "\n", "errors are one line")
	}
}

// drawn is the tests' Options.Draw: a figure stands in as the spec's
// title and the table's row count (engine/figure draws the real ones;
// cmd/pslab's tests run pslab run with them).
func drawn(s *Spec, t *dataset.Table) (svg, png []byte, err error) {
	svg = fmt.Appendf(nil, "<svg>%s: %d rows</svg>\n", s.Title, t.Len())
	return svg, append([]byte("png "), svg...), nil
}

func TestRunWritesFiguresAndChecks(t *testing.T) {
	t.Parallel()
	root, sp := repo(t, goodSpec, goodGolden)
	outs := Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})
	require.Len(t, outs, 1)
	o := outs[0]
	require.NoError(t, o.Err)
	require.True(t, o.Checks[0].Pass, o.Checks[0].Message)
	require.False(t, o.Checks[1].Pass, "regression value 0 must fail until updated")
	// A failed check writes nothing: figures/ holds only passing runs.
	_, err := os.Stat(filepath.Join(root, "figures"))
	require.True(t, errors.Is(err, os.ErrNotExist), "a failed check wrote figures")
	// Regression update fixes the failing check; then the run writes.
	n, err := o.Golden.Update(o.Result.Lookup)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	outs = Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})
	require.False(t, outs[0].Failed())
	var first [][]byte
	for _, ext := range []string{".svg", ".png", ".arrow", ".run.json"} {
		b, err := os.ReadFile(filepath.Join(root, "figures", "beyond", "toy"+ext))
		require.NoError(t, err)
		require.NotEmpty(t, b)
		first = append(first, b)
	}
	// Same seed, same bytes.
	Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})
	for i, ext := range []string{".svg", ".png", ".arrow", ".run.json"} {
		b, err := os.ReadFile(filepath.Join(root, "figures", "beyond", "toy"+ext))
		require.NoError(t, err)
		require.Equal(t, first[i], b, ext)
	}
}

func TestRunFailuresWriteNothing(t *testing.T) {
	t.Parallel()
	root, sp := repo(t, strings.Replace(goodSpec, "slope = 2.0", "slope = -1.0", 1), goodGolden)
	o := Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})[0]
	require.ErrorContains(t, o.Err, `toy.toml:19: negative slope -1`)
	_, err := os.Stat(filepath.Join(root, "figures"))
	require.True(t, errors.Is(err, os.ErrNotExist), "no partial output")

	// Writing needs a way to draw the figure.
	root1, sp1 := repo(t, goodSpec, goodGolden)
	o = Run(context.Background(), registry(), []string{sp1}, Options{Root: root1, Write: true})[0]
	require.ErrorContains(t, o.Err, "Write without Draw")
	_, err = os.Stat(filepath.Join(root1, "figures"))
	require.True(t, errors.Is(err, os.ErrNotExist), "nothing written")

	// Unknown params keys are errors with their line.
	_, sp2 := repo(t, strings.Replace(goodSpec, "slope = 2.0", "slop = 2.0", 1), goodGolden)
	o = Run(context.Background(), registry(), []string{sp2}, Options{Root: filepath.Dir(filepath.Dir(filepath.Dir(sp2)))})[0]
	require.ErrorContains(t, o.Err, `toy.toml:19: unknown field "params.slop"`)

	// Unknown kind, missing golden file.
	_, sp3 := repo(t, strings.Replace(goodSpec, `kind = "line"`, `kind = "curve"`, 1), goodGolden)
	o = Run(context.Background(), registry(), []string{sp3}, Options{})[0]
	require.ErrorContains(t, o.Err, `toy.toml:4: unknown kind "curve"`)
	root4, sp4 := repo(t, goodSpec, "")
	o = Run(context.Background(), registry(), []string{sp4}, Options{Root: root4})[0]
	require.ErrorContains(t, o.Err, "no golden file")
}

func TestFindFailsOnNoExperiments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "experiments"), 0o755))
	_, err := Find(dir, nil)
	require.ErrorContains(t, err, "no experiment files")
}

func TestSweepPoints(t *testing.T) {
	t.Parallel()
	require.Equal(t, []float64{1, 2, 3}, Sweep{Var: "w", From: 1, To: 3}.Points())
	require.Equal(t, []float64{0.1, 0.3, 0.5}, Sweep{Var: "x", From: 0.1, To: 0.5, Step: 0.2}.Points()[:3])
	require.Equal(t, []float64{4, 8}, Sweep{Var: "b", Values: []float64{4, 8}}.Points())
	require.Nil(t, Sweep{}.Points())
}
