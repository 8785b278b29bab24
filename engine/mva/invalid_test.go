package mva

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func validModel() Model {
	return Model{
		Stations: []Station{{Name: "W", Kind: Delay}, {Name: "U", Kind: PS}},
		Classes:  []Class{{Name: "w1", Population: 1, Demands: []float64{1, 1}}},
	}
}

func TestInvalidModels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(*Model)
		want   string
	}{
		{"no stations", func(m *Model) { m.Stations = nil }, "no stations"},
		{"no classes", func(m *Model) { m.Classes = nil }, "no classes"},
		{"unset kind", func(m *Model) { m.Stations[1].Kind = 0 }, `station "U": unknown kind Kind(0)`},
		{"unknown kind", func(m *Model) { m.Stations[1].Kind = 99 }, `station "U": unknown kind Kind(99)`},
		{"negative demand", func(m *Model) { m.Classes[0].Demands[1] = -0.1 }, `station "U": class "w1": invalid demand -0.1`},
		{"NaN demand", func(m *Model) { m.Classes[0].Demands[0] = math.NaN() }, `station "W": class "w1": invalid demand NaN`},
		{"Inf demand", func(m *Model) { m.Classes[0].Demands[1] = math.Inf(1) }, `station "U": class "w1": invalid demand +Inf`},
		{"short demands", func(m *Model) { m.Classes[0].Demands = []float64{1} }, `class "w1": 1 demands for 2 stations`},
		{"negative population", func(m *Model) { m.Classes[0].Population = -1 }, `class "w1": negative population -1`},
		{"zero population", func(m *Model) { m.Classes[0].Population = 0 }, "total population is zero"},
		{"all-zero demands", func(m *Model) { m.Classes[0].Demands = []float64{0, 0} }, `class "w1": all demands are zero`},
		{"unnamed station", func(m *Model) { m.Stations[1].Name = ""; m.Classes[0].Demands[1] = -1 }, "station 1: class"},
	} {
		m := validModel()
		tc.change(&m)
		for _, method := range []Method{Recursive, BardSchweitzer} {
			r, err := Solve(m, Options{Method: method})
			require.ErrorContains(t, err, tc.want, tc.name)
			require.Nil(t, r.Throughput)
		}
	}
}

func TestInvalidOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Method: 7}, "unknown method"},
		{Options{Argument: 9}, "unknown argument"},
		{Options{Tolerance: -1}, "invalid tolerance"},
		{Options{Tolerance: math.NaN()}, "invalid tolerance"},
		{Options{MaxIterations: -1}, "negative max iterations"},
		{Options{Damping: 1.5}, "damping"},
		{Options{Damping: -0.5}, "damping"},
		{Options{MaxVectors: -1}, "negative max vectors"},
	} {
		_, err := Solve(validModel(), tc.opt)
		require.ErrorContains(t, err, tc.want)
	}
}

func TestNaNGammaIsAnError(t *testing.T) {
	t.Parallel()
	nan := func(float64) float64 { return math.NaN() }
	for _, arg := range []Argument{TotalAtArrival, TotalFixedPoint} {
		_, err := Solve(oneQueue(HybridLink, 3), Options{G: nan, Argument: arg})
		require.ErrorContains(t, err, "is NaN")
		_, err = Solve(oneQueue(HybridLink, 3), Options{G: nan, Argument: arg, Method: BardSchweitzer})
		require.ErrorContains(t, err, "is NaN")
	}
}

func TestTooManyVectors(t *testing.T) {
	t.Parallel()
	m := validModel()
	m.Classes = append(m.Classes, Class{Name: "w2", Population: 1000, Demands: []float64{1, 2}})
	m.Classes[0].Population = 1000
	_, err := Solve(m, Options{MaxVectors: 1000})
	require.ErrorContains(t, err, "more than 1000 population vectors")
	_, err = Solve(m, Options{MaxVectors: 1001 * 1001})
	require.NoError(t, err)
}

func TestInvalidCurveAndNetwork(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p          Phases
		max, srv   int
		v          Variant
		want       string
		wantNetErr bool
	}{
		{Phases{Worker: -1, Uplink: 1}, 3, 1, Exact, "phases: Worker: invalid time -1", true},
		{Phases{Uplink: math.NaN()}, 3, 1, Exact, "phases: Uplink: invalid time NaN", true},
		{Phases{Server: math.Inf(1)}, 3, 1, Exact, "phases: Server: invalid time +Inf", true},
		{Phases{Downlink: -2}, 3, 1, Exact, "phases: Downlink", true},
		{Phases{}, 3, 1, Exact, "all times are zero", true},
		{fig7, 0, 1, Exact, "maxWorkers 0 < 1", false},
		{fig7, 3, 0, Exact, "servers: 0 < 1", true},
		{fig7, 3, 1, Variant(42), "unknown variant Variant(42)", true},
	} {
		x, err := Curve(tc.p, tc.max, tc.srv, tc.v)
		require.ErrorContains(t, err, tc.want)
		require.Nil(t, x)
		if tc.wantNetErr {
			_, _, err = Network([]Phases{tc.p}, tc.srv, tc.v)
			require.ErrorContains(t, err, tc.want)
		}
	}
	_, err := CurveWith(fig7, 1<<40, 1, Hybrid, Options{})
	require.ErrorContains(t, err, "MaxVectors")
	_, err = CurveWith(fig7, 100, 1, Schweitzer, Options{MaxVectors: 50})
	require.ErrorContains(t, err, "MaxVectors")
	_, _, err = Network(nil, 1, Exact)
	require.ErrorContains(t, err, "no workers")
}

func TestNames(t *testing.T) {
	t.Parallel()
	require.Equal(t, "DeterministicFCFS", DeterministicFCFS.String())
	require.Equal(t, "HybridFixedPoint", HybridFixedPoint.String())
	require.Equal(t, "ClassFixedPoint", ClassFixedPoint.String())
}
