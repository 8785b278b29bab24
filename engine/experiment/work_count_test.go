package experiment

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWorkChargedAndDone: an admitted check records its estimate in
// Charged (the largest of each kind of work, the estimates being whole
// experiments'); a refused one records nothing. CheckRows adds RowWork
// units per row to the model work; Done counts the events added on
// EventCounter and the model work of CountModelWork; Result.RowWork is
// RowWork per row, metric and note.
func TestWorkChargedAndDone(t *testing.T) {
	t.Parallel()
	s, err := Parse("experiments/beyond/toy.toml", []byte(goodSpec+"\n[limits]\nmodel_work = 1000\nevents = 100\n"))
	require.NoError(t, err)
	e := &Env{Spec: s}
	require.Zero(t, e.Charged())
	require.Zero(t, e.Done())

	require.NoError(t, e.CheckEvents(60, "a"))
	require.NoError(t, e.CheckEvents(40, "a part of it"))
	require.Error(t, e.CheckEvents(101, "too much"))
	require.NoError(t, e.CheckModelWork([]string{"sweep"}, 100, "evaluations"))
	require.NoError(t, e.CheckRows([]string{"sweep"}, 100, 20, "evaluations"))
	err = e.CheckRows([]string{"sweep"}, 100, 23, "evaluations")
	require.ErrorContains(t, err, "evaluations and 23 result rows, metrics and notes: about 1.02e+03 units of model work exceed the limit of 1e+03")
	require.Equal(t, Work{Events: 60, Model: 100 + 20*RowWork}, e.Charged())

	e.EventCounter().Add(7)
	e.CountModelWork(2.5)
	e.CountModelWork(0.5)
	require.Equal(t, Work{Events: 7, Model: 3}, e.Done())

	r := NewResult()
	r.Point("a", "m", "derived", 1, 2)
	r.Metric("x", 1)
	r.Note("n")
	require.Equal(t, 3.0*RowWork, r.RowWork())
}
