package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProvisionDefaultsAndFormats: -beta0 defaults to the workload's
// documented value (cifar10: 8000, as the experiments use), a lower bound
// above the cap prints as ">4096" (it printed the clamped 4097 beside
// "lower bound 1.032e+04"), and -format csv and json carry the same plan.
func TestProvisionDefaultsAndFormats(t *testing.T) {
	t.Parallel()
	def, err := runProvision("-workload", "cifar10", "-loss", "0.8", "-time", "90")
	require.NoError(t, err)
	explicit, err := runProvision("-workload", "cifar10", "-loss", "0.8", "-time", "90", "-beta0", "8000")
	require.NoError(t, err)
	require.Equal(t, explicit, def)
	require.Contains(t, def, "β0 8000")

	out, err := runProvision("-workload", "VGG-19", "-loss", "0.8", "-time", "1")
	require.Error(t, err)
	require.Contains(t, out, ">4096")
	require.NotContains(t, out, "4097")

	js, err := runProvision("-workload", "cifar10", "-loss", "0.8", "-time", "90", "-format", "json")
	require.NoError(t, err)
	var doc provisionOutput
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.NotNil(t, doc.Plan)
	require.Equal(t, 8000.0, doc.Beta0)
	require.Contains(t, def, "workers             "+strconv.Itoa(doc.Plan.Workers))

	cs, err := runProvision("-workload", "cifar10", "-loss", "0.8", "-time", "90", "-format", "csv")
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, "type", rows[0][0])
	chosen := 0
	for _, r := range rows[1:] {
		if r[7] == "true" {
			chosen++
			require.Equal(t, doc.Plan.Instance, r[0])
			require.Equal(t, strconv.Itoa(doc.Plan.Workers), r[8])
		}
	}
	require.Equal(t, 1, chosen)
}
