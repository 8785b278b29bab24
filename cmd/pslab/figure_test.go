package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/figure"
)

// TestFigureSpec: an experiment's title and its [plot] table's labels,
// panels, bound and lines reach the figure pslab run draws.
func TestFigureSpec(t *testing.T) {
	t.Parallel()
	s, err := experiment.Parse("experiments/beyond/toy.toml", []byte(`id = "beyond-toy"
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
log_y = true
bound = 0.1
bound_label = "paper: ± 10%"

[[plot.panel]]
match = "testbed"
title = "testbed"

[[plot.panel]]
title = "the rest"

[[plot.line]]
y = 3
label = "limit"
`))
	require.NoError(t, err)
	fs := figureSpec(s)
	require.Equal(t, "Toy", fs.Title)
	require.Equal(t, "x", fs.XLabel)
	require.Equal(t, "y (s)", fs.YLabel)
	require.True(t, fs.LogY)
	require.Equal(t, 0.1, fs.Bound)
	require.Equal(t, "paper: ± 10%", fs.BoundLabel)
	require.Equal(t, []figure.Panel{{Match: "testbed", Title: "testbed"}, {Title: "the rest"}}, fs.Panels)
	require.Equal(t, []figure.Line{{Y: 3, Label: "limit"}}, fs.Lines)
}
