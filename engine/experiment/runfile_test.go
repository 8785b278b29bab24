package experiment

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRunFileRoundTrip writes metrics with non-finite values and reads
// them back; only a recording run changes the recorded run time.
func TestRunFileRoundTrip(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	s := &Spec{ID: "beyond-toy", Paper: "beyond", Name: "toy"}
	res := &Result{Metrics: map[string]float64{"b": 1.5, "a": math.Inf(1), "c": math.NaN()}}
	require.NoError(t, writeRunFile(root, root, s, res, 1234*time.Millisecond, false))
	r, err := ReadRunFile(filepath.Join(root, "figures", "beyond", "toy.run.json"))
	require.NoError(t, err)
	require.Equal(t, "beyond-toy", r.ID)
	require.Zero(t, r.ElapsedS, "not recorded")
	require.Equal(t, 1.5, float64(r.Metrics["b"]))
	require.True(t, math.IsInf(float64(r.Metrics["a"]), 1))
	require.True(t, math.IsNaN(float64(r.Metrics["c"])))

	require.NoError(t, writeRunFile(root, root, s, res, 1234*time.Millisecond, true))
	r, err = ReadRunFile(RunFilePath(root, s))
	require.NoError(t, err)
	require.Equal(t, 1.2, r.ElapsedS, "recorded, 2 significant digits")
	require.NoError(t, writeRunFile(root, root, s, res, 9*time.Second, false))
	r, err = ReadRunFile(RunFilePath(root, s))
	require.NoError(t, err)
	require.Equal(t, 1.2, r.ElapsedS, "kept by a run that does not record")
}

// TestRunFileRefusals: a run time that is not a duration, data after the
// object, an unknown field and a missing id are refused, naming the file.
func TestRunFileRefusals(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"id": "x", "elapsed_s": -1, "metrics": {}}`: "f.run.json: elapsed_s -1 is not a run time",
		`{"id": "x", "metrics": {}} }`:                "f.run.json: data after the run's object",
		`{"id": "x", "metrics": {}} {"id": "y"}`:      "f.run.json: data after the run's object",
		`{"id": "x", "metrics": {}, "elapsed": 1}`:    `f.run.json: json: unknown field "elapsed"`,
		`{"id": "x", "metrics": {"a": "fast"}}`:       "f.run.json: metric value",
		`{"elapsed_s": 1, "metrics": {}}`:             "f.run.json: no id",
	} {
		_, err := ParseRunFile("f.run.json", []byte(in))
		require.ErrorContains(t, err, want, in)
	}
}
