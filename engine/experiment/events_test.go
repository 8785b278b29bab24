package experiment

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckEvents: SimEvents counts two events per op, step and worker;
// CheckEvents holds estimates to [limits] events or DefaultMaxEvents.
func TestCheckEvents(t *testing.T) {
	t.Parallel()
	require.Equal(t, 2.0*10*100*(1+2+3), SimEvents(10, 100, 1, 2, 3))
	e := &Env{Spec: &Spec{ID: "icpe20-x"}}
	require.NoError(t, e.CheckEvents(DefaultMaxEvents, "all"))
	err := e.CheckEvents(3*DefaultMaxEvents, "case \"a\"")
	require.ErrorContains(t, err, `case "a": about 6e+09 simulator events exceed the limit of 2e+09`)
	require.ErrorContains(t, err, "[limits] events = 6e+09")
	e.Spec.Limits.Events = 1e10
	require.NoError(t, e.CheckEvents(3*DefaultMaxEvents, "all"))
}
