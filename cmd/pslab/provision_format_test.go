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
		if r[9] == "true" {
			chosen++
			require.Equal(t, doc.Plan.Instance, r[0])
			require.Equal(t, strconv.Itoa(doc.Plan.Workers), r[10])
		}
	}
	require.Equal(t, 1, chosen)
}

// TestProvisionJSONTypes: every bound is a JSON number or null, never a
// string (n_lower was ">4096" as a string, n_upper a number): a lower
// bound above -max_workers is null with lower_above_cap, a bound the
// search did not reach is null, and CSV leaves them empty.
func TestProvisionJSONTypes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
	}{
		{"feasible", []string{"-workload", "cifar10", "-loss", "0.8", "-time", "90"}},
		{"lower above the cap", []string{"-workload", "VGG-19", "-loss", "0.8", "-time", "1"}},
		{"small cap", []string{"-workload", "cifar10", "-loss", "0.8", "-time", "90", "-max_workers", "2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			js, _ := runProvision(append(c.args, "-format", "json")...)
			var doc struct {
				Search []map[string]any `json:"search"`
			}
			require.NoError(t, json.Unmarshal([]byte(js), &doc), js)
			require.NotEmpty(t, doc.Search)
			for _, row := range doc.Search {
				for _, k := range []string{"n_lower", "n_upper", "n_ps"} {
					v, ok := row[k]
					require.True(t, ok, "%s missing", k)
					if v != nil {
						require.IsType(t, float64(0), v, "%s = %v", k, v)
					}
				}
				require.IsType(t, false, row["lower_above_cap"])
				require.IsType(t, false, row["upper_capped"])
				if row["lower_above_cap"] == true {
					require.Nil(t, row["n_lower"])
				}
			}
			cs, _ := runProvision(append(c.args, "-format", "csv")...)
			rows, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
			require.NoError(t, err)
			require.Equal(t, provisionHeader, rows[0])
			for _, r := range rows[1:] {
				for _, i := range []int{2, 4, 6} { // n_lower, n_upper, n_ps
					if r[i] != "" {
						_, err := strconv.Atoi(r[i])
						require.NoError(t, err, "%s = %q", rows[0][i], r[i])
					}
				}
			}
		})
	}
	js, err := runProvision("-workload", "VGG-19", "-loss", "0.8", "-time", "1", "-format", "json")
	require.Error(t, err)
	require.Contains(t, js, `"lower_above_cap": true`)
	require.Contains(t, js, `"n_lower": null`)
}
