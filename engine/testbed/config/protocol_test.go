package config

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The protocol keys of issue 29 are optional: left out, a configuration
// keeps a fixed repetition count, no dilation and no time cap, and the
// hash it had before they existed.
func TestProtocolKeysOptionalAndHashStable(t *testing.T) {
	t.Parallel()
	cs, err := loadConfigs(t, goodConfigs)
	require.NoError(t, err)
	c := cs[0]
	require.Equal(t, 3, c.RepCap(), "max_repetitions unset: repetitions")
	require.Zero(t, c.StretchedPoints())
	old := c
	old.MaxRepetitions, old.Dilations, old.DilatePoints, old.MaxMinutes = 0, nil, 0, 0
	require.Equal(t, old.Hash(), c.Hash())

	withKeys := strings.Replace(goodConfigs, "phase_skip = 1\n", "phase_skip = 1\nmax_repetitions = 12\ndilations = [2, 4]\nmax_minutes = 60\n", 1) +
		"dilate_points = 1\nmax_minutes = 90\n"
	cs, err = loadConfigs(t, withKeys)
	require.NoError(t, err)
	require.Equal(t, 12, cs[0].RepCap())
	require.Equal(t, []float64{2, 4}, cs[0].Dilations)
	require.Equal(t, 2, cs[0].StretchedPoints(), "DefaultDilatePoints")
	require.Equal(t, 60.0, cs[0].MaxMinutes)
	require.Equal(t, 1, cs[1].StretchedPoints(), "dilate_points of the table")
	require.Equal(t, 90.0, cs[1].MaxMinutes)
	require.NotEqual(t, c.Hash(), cs[0].Hash(), "a new protocol is a new measurement")

	s := cs[0].Stretch(4)
	require.Equal(t, cs[0].DeviceSpeed/4, s.DeviceSpeed)
	require.Equal(t, cs[0].BandwidthMbit/4, s.BandwidthMbit)
	require.Equal(t, cs[0].BytesScale, s.BytesScale)
	require.Equal(t, cs[0].Window, s.Window)

	staggered, err := loadConfigs(t, goodConfigs+"start_stagger_ms = 40\n")
	require.NoError(t, err)
	st := staggered[len(staggered)-1]
	require.NotEqual(t, cs[len(cs)-1].Hash(), st.Hash(), "an intervention is a new measurement")
	require.Equal(t, 40*time.Millisecond, st.Job(".", 3).StartStagger)
	stretched := st.Stretch(4)
	require.Equal(t, 160*time.Millisecond, stretched.Job(".", 3).StartStagger, "the initial phases stretch with the run")
}

// Bad protocol keys are refused with file:line and key, in [defaults] at
// the key's own line.
func TestProtocolKeysRefused(t *testing.T) {
	t.Parallel()
	h := strings.Count(goodConfigs, "\n") + 2
	for _, tc := range []struct{ edit, want string }{
		{"max_repetitions = 2\n", fmt.Sprintf(":%d: config 3 \"c\": field max_repetitions: 2, need ≥ repetitions (3)", h)},
		{"dilations = [2, 2]\n", "field dilations: 2 after 2, need increasing factors"},
		{"dilations = [0.5]\n", "field dilations: 0.5, need 1 < k ≤ 16"},
		{"dilations = [2, 4, 8, 12, 16]\n", "field dilations: 5 factors, at most 4"},
		{"dilate_points = 2\n", "field dilate_points: set without dilations"},
		{"max_minutes = -1\n", "field max_minutes: -1, need a finite value ≥ 0"},
		{"max_minutes = nan\n", "field max_minutes: NaN"},
		{"start_stagger_ms = -5\n", "field start_stagger_ms: -5, need 0 ≤ start_stagger_ms ≤ 60000"},
		{"start_stagger_ms = nan\n", "field start_stagger_ms: NaN"},
	} {
		_, err := loadConfigs(t, goodConfigs+"\n[[config]]\nname = \"c\"\nmodel = \"toy\"\n"+tc.edit)
		require.ErrorContains(t, err, tc.want, tc.edit)
	}
	line := strings.Count(goodConfigs[:strings.Index(goodConfigs, "phase_skip")], "\n") + 2
	_, err := loadConfigs(t, strings.Replace(goodConfigs, "phase_skip = 1\n", "phase_skip = 1\ndilations = [3, 2]\n", 1))
	require.ErrorContains(t, err, fmt.Sprintf(":%d: [defaults] field dilations: 2 after 3, need increasing factors", line))
}
