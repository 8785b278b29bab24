package main

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestListFormats: pslab list -format json is one document of the
// experiments and kinds, -format csv one row per experiment, and both list
// the same experiments as the text output.
func TestListFormats(t *testing.T) {
	t.Parallel()
	text, _, _, err := runCLI("list", "-root", root)
	require.NoError(t, err)
	js, _, _, err := runCLI("list", "-root", root, "-format", "json")
	require.NoError(t, err)
	var doc listDoc
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	require.NotEmpty(t, doc.Experiments)
	require.NotEmpty(t, doc.Kinds)
	for _, e := range doc.Experiments {
		require.Nil(t, e.Error, e.File)
		require.Contains(t, text, e.ID)
		require.True(t, strings.HasPrefix(e.ID, e.Paper+"-"), e.ID)
		require.Equal(t, "experiments/"+e.Paper+"/"+strings.TrimPrefix(e.ID, e.Paper+"-")+".toml", filepath.ToSlash(e.File))
	}
	for _, k := range doc.Kinds {
		require.NotNil(t, k.Models, k.Name) // [] rather than null
	}
	cs, _, _, err := runCLI("list", "-root", root, "-format", "csv")
	require.NoError(t, err)
	rows, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"id", "paper", "kind", "status", "file", "error"}, rows[0])
	require.Len(t, rows, len(doc.Experiments)+1)
	for i, r := range rows[1:] {
		require.Equal(t, doc.Experiments[i].ID, r[0])
		require.Equal(t, doc.Experiments[i].Status, r[3])
	}
}

// TestCheckFormats: pslab check -format json and csv carry every check
// with numbers as numbers (null where there is none), the summary counts
// of the text output, and a failure still exits 1.
func TestCheckFormats(t *testing.T) {
	t.Parallel()
	d := t.TempDir()
	badPhases(t, d)
	pass := filepath.Join(d, "experiments", "mascots18", "ok.toml")
	badWrite(t, pass, []byte(badExperimentText("ok")))
	badWrite(t, filepath.Join(d, "golden", "mascots18", "ok.toml"), []byte(badGoldenText))
	fail := filepath.Join(d, "experiments", "mascots18", "off.toml")
	badWrite(t, fail, []byte(badExperimentText("off")))
	badWrite(t, filepath.Join(d, "golden", "mascots18", "off.toml"), []byte(strings.Replace(badGoldenText, "5.235602094240838", "6", 1)))

	cases := []struct {
		name   string
		files  []string
		failed int
	}{
		{"passing", []string{pass}, 0},
		{"failing", []string{pass, fail}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			text, _, code, _ := runCLI(append([]string{"check", "-root", d}, c.files...)...)
			js, _, jcode, _ := runCLI(append([]string{"check", "-root", d, "-format", "json"}, c.files...)...)
			require.Equal(t, code, jcode)
			require.Equal(t, map[bool]int{true: 1, false: 0}[c.failed > 0], jcode)
			var doc resultDoc
			require.NoError(t, json.Unmarshal([]byte(js), &doc), js)
			require.Equal(t, len(c.files), doc.Summary.Experiments)
			require.Equal(t, c.failed, doc.Summary.Failed)
			require.Equal(t, 2*len(c.files), doc.Summary.Checks)
			require.Contains(t, text, strconv.Itoa(doc.Summary.Checks)+" checks")
			var raw struct {
				Experiments []struct {
					Checks []map[string]any `json:"checks"`
				} `json:"experiments"`
			}
			require.NoError(t, json.Unmarshal([]byte(js), &raw))
			for _, e := range raw.Experiments {
				for _, ch := range e.Checks {
					require.IsType(t, float64(0), ch["got"])
					require.IsType(t, float64(0), ch["expected"])
					require.IsType(t, true, ch["pass"])
					require.Nil(t, ch["verdict"]) // not an interval check
				}
			}
			for _, e := range doc.Experiments {
				name := strings.TrimPrefix(e.ID, "mascots18-")
				require.Equal(t, "experiments/mascots18/"+name+".toml", e.File)
				require.Equal(t, name == "ok", e.OK, e.ID)
				require.Nil(t, e.Error)
			}

			cs, _, ccode, _ := runCLI(append([]string{"check", "-root", d, "-format", "csv"}, c.files...)...)
			require.Equal(t, code, ccode)
			rows, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
			require.NoError(t, err, cs)
			require.Equal(t, resultsHeader, rows[0])
			require.Len(t, rows, 1+doc.Summary.Checks)
			fails := 0
			for _, r := range rows[1:] {
				if r[4] == "false" {
					fails++
				}
				_, err := strconv.ParseFloat(r[7], 64) // got
				require.NoError(t, err)
			}
			require.Equal(t, c.failed, fails)
		})
	}
}
