package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
)

// TestFigureSpec: every committed experiment's title and [plot] table
// (labels, scales, legend, bound, panels and lines) reach the figure
// pslab run draws; among them are experiments with a bound, panels and
// lines.
func TestFigureSpec(t *testing.T) {
	t.Parallel()
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	var bounds, panels, lines int
	for _, path := range paths {
		s, err := experiment.Load(path)
		require.NoError(t, err, path)
		p, fs := s.Plot, figureSpec(s)
		require.Equal(t, s.Title, fs.Title, path)
		require.Equal(t, [2]string{p.XLabel, p.YLabel}, [2]string{fs.XLabel, fs.YLabel}, path)
		require.Equal(t, p.Caption, fs.Caption, path)
		require.Equal(t, p.Type == "bar", fs.Bar, path)
		require.Equal(t, [3]bool{p.LogX, p.LogY, p.XCategories}, [3]bool{fs.LogX, fs.LogY, fs.XCategories}, path)
		require.Equal(t, p.Legend, fs.Legend, path)
		require.Equal(t, p.Bound, fs.Bound, path)
		require.Equal(t, p.BoundLabel, fs.BoundLabel, path)
		require.Len(t, fs.Panels, len(p.Panels), path)
		for i, x := range p.Panels {
			require.Equal(t, [3]string{x.Match, x.Contains, x.Title}, [3]string{fs.Panels[i].Match, fs.Panels[i].Contains, fs.Panels[i].Title}, path)
		}
		require.Len(t, fs.Lines, len(p.Lines), path)
		for i, l := range p.Lines {
			got := fs.Lines[i]
			require.Equal(t, l.Y, got.Y, path)
			require.Equal(t, [2]string{l.Label, l.Series}, [2]string{got.Label, got.Series}, path)
			require.Equal(t, l.Categories, got.Categories, path)
		}
		if fs.Bound > 0 {
			bounds++
		}
		if len(fs.Panels) > 0 {
			panels++
		}
		if len(fs.Lines) > 0 {
			lines++
		}
	}
	require.Positive(t, bounds, "an experiment with a bound")
	require.Positive(t, panels, "an experiment with panels")
	require.Positive(t, lines, "an experiment with lines")
}
