package experiment

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestModelWorkLimit: [limits] model_work and workers decode beside the
// other limits (unknown keys stay errors); CheckModelWork refuses above the
// limit with the key's line, the estimate and the key that raises it.
func TestModelWorkLimit(t *testing.T) {
	t.Parallel()
	const file = "experiments/beyond/toy.toml"
	s, err := Parse(file, []byte(goodSpec+"\n[limits]\nworkers = 100\nmodel_work = 5\n"))
	require.NoError(t, err)
	e := &Env{Spec: s}
	require.Equal(t, int64(100), e.WorkerLimit())
	require.Equal(t, 5.0, e.ModelWorkLimit())
	require.NoError(t, e.CheckModelWork([]string{"sweep"}, 5, "toy"))
	err = e.CheckModelWork([]string{"sweep"}, 6, "toy: 3 points")
	require.ErrorContains(t, err, file+":9: toy: 3 points: about 6 units of model work exceed the limit of 5")
	require.ErrorContains(t, err, "[limits] model_work = 6")

	s, err = Parse(file, []byte(goodSpec))
	require.NoError(t, err)
	e = &Env{Spec: s}
	require.Equal(t, int64(DefaultMaxWorkers), e.WorkerLimit())
	require.Equal(t, float64(DefaultMaxModelWork), e.ModelWorkLimit())

	_, err = Parse(file, []byte(goodSpec+"\n[limits]\nmodel_werk = 5\n"))
	require.ErrorContains(t, err, `unknown field "limits.model_werk"`)
	require.True(t, strings.HasPrefix(err.Error(), file+":"))
}
