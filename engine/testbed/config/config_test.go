package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/training"
)

const goodConfigs = `[defaults]
profile_dir = "datasets/pipedream-profiles"
batch = 0
device_speed = 40
bytes_scale = 0.0025
bandwidth_mbit = 1000
servers = 1
sync = "asp"
transport = "multiplexed"
order = "default"
seed = 1
window = 70000
conn_window = 70000
workers = [1, 2, 3]
repetitions = 3
steps = 100
average = 50
profile_steps = 100
phase_skip = 1

[[config]]
name = "a"
model = "alexnet"
batch = 512

[[config]]
name = "b"
model = "vgg16"
transport = "ordered"
order = "tic"
workers = [3]
bandwidth_mbit = 100
`

func writeConfig(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "configs.toml")
	require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

// loadConfigs writes s to a configuration file and loads it with the
// file's directory as the root.
func loadConfigs(t *testing.T, s string) ([]Config, error) {
	t.Helper()
	p := writeConfig(t, s)
	return LoadConfigs(p, filepath.Dir(p))
}

func TestLoadConfigsAppliesDefaults(t *testing.T) {
	t.Parallel()
	cs, err := loadConfigs(t, goodConfigs)
	require.NoError(t, err)
	require.Len(t, cs, 2)
	require.Equal(t, 512, cs[0].Batch)
	require.Equal(t, []int{1, 2, 3}, cs[0].Workers)
	require.Equal(t, training.Multiplexed, cs[0].Transport)
	require.Equal(t, []int{3}, cs[1].Workers)
	require.Equal(t, training.OrderTIC, cs[1].Order)
	require.Equal(t, 100e6/8, cs[1].Bandwidth(), "Mbit/s to bytes/s")
	require.Equal(t, filepath.Join("/r", "datasets/pipedream-profiles", "vgg16.graph.txt"), cs[1].Job("/r", 3).Profile)
	require.Equal(t, 3, cs[1].Job("/r", 3).Workers)
}

func TestLoadConfigsErrorsNameFileLineAndField(t *testing.T) {
	t.Parallel()
	h := strings.Count(goodConfigs, "\n") + 2 // line of the appended [[config]]
	at := func(d int, msg string) string { return fmt.Sprintf(":%d: %s", h+d, msg) }
	for _, tc := range []struct{ edit, want string }{
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\nbogus = 1\n", at(3, `unknown field "config.bogus"`)},
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\nsteps = \"many\"\n", at(3, "")},
		{goodConfigs + "\n[[config]]\nmodel = \"toy\"\n", at(0, `config 3 "": missing field name`)},
		{goodConfigs + "\n[[config]]\nname = \"a\"\nmodel = \"toy\"\n", at(0, `config name "a" repeats config 1`)},
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\naverage = 200\n", at(0, `config 3 "c": field average: 200`)},
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\nworkers = [0]\n", `field workers: 0`},
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\nworkers = [1000000000]\n", at(0, `config 3 "c": field workers: 1000000000, need 1 ≤ W ≤ 256`)},
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\nsteps = 100000000\n", at(0, `config 3 "c": field steps: 100000000`)},
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\nwindow = 10\n", `window 10 bytes`},
		{goodConfigs + "\n[[config]]\nname = \"c/d\"\nmodel = \"toy\"\n", `field name: "c/d"`},
		{goodConfigs + "\n[[config]]\nname = \"c\"\nmodel = \"toy\"\nsync = \"ssp\"\n", `sync "ssp"`},
	} {
		_, err := loadConfigs(t, tc.edit)
		require.ErrorContains(t, err, tc.want)
	}
	_, err := loadConfigs(t, "[defaults]\nsteps = 1\n")
	require.ErrorContains(t, err, "no [[config]] tables")
}

func TestConfigScaleForQuickRuns(t *testing.T) {
	t.Parallel()
	cs, err := loadConfigs(t, goodConfigs)
	require.NoError(t, err)
	q := cs[0].Scale(0.1)
	require.Equal(t, 10, q.Steps)
	require.Equal(t, 5, q.Average)
	require.Equal(t, 10, q.ProfileSteps)
	q = cs[0].Scale(0.001)
	require.Equal(t, 4, q.Steps)
	require.Equal(t, 2, q.Average)
	require.Equal(t, 4, q.ProfileSteps, "phase_skip + 3")
	require.NoError(t, q.Validate())
}

func TestCheckedInConfigsDecode(t *testing.T) {
	t.Parallel()
	cs, err := LoadConfigs("../../../datasets/testbed/configs.toml", "../../..")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cs), 20)
}
