package experiment

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/golden"
)

// missedGolden records one missed paper claim.
const missedGolden = goodGolden + `
[[check]]
series = "line"
x = 1
expected = 5
tol = 0.1
source = "paper §1 \"y(1) = 5\""
deviation = "the toy's slope gives 2"
pinned = 2
`

// inconclusiveGolden records one inconclusive interval claim.
const inconclusiveGolden = goodGolden + `
[[check]]
metric = "draw"
interval = true
op = "le"
expected = 0.5
source = "paper §1 \"below one half\""
inconclusive = "the interval straddles 0.5"
`

func TestCheckStatus(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status, golden, want string
	}{
		{"reproduced", goodGolden, ""},
		{"partial", goodGolden, ""},
		{"deviates", goodGolden, `toy.toml:6: status "deviates", but golden/beyond/toy.toml records no missed claim: want "reproduced" or "partial"`},
		{"deviates", missedGolden, ""},
		{"partial", missedGolden, `toy.toml:6: status "partial", but golden/beyond/toy.toml records 1 missed claim(s) (checks with a deviation): want "deviates"`},
		{"reproduced", missedGolden, `want "deviates"`},
		{"partial", inconclusiveGolden, ""},
		{"reproduced", inconclusiveGolden, `status "reproduced", but golden/beyond/toy.toml records 1 inconclusive claim(s): want "partial"`},
	} {
		_, sp := repo(t, strings.Replace(goodSpec, `status = "reproduced"`, `status = "`+c.status+`"`, 1), "")
		s, err := Load(sp)
		require.NoError(t, err)
		g, err := golden.Parse("golden/beyond/toy.toml", []byte(c.golden))
		require.NoError(t, err)
		err = CheckStatus(s, g)
		if c.want == "" {
			require.NoError(t, err, "%s with %s", c.status, c.golden)
			continue
		}
		require.ErrorContains(t, err, c.want)
	}
}

// TestRunRefusesAContradictingStatus: the runner checks the status
// before the experiment runs and writes nothing.
func TestRunRefusesAContradictingStatus(t *testing.T) {
	t.Parallel()
	root, sp := repo(t, strings.Replace(goodSpec, `status = "reproduced"`, `status = "partial"`, 1), missedGolden)
	o := Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})[0]
	require.ErrorContains(t, o.Err, `status "partial", but`)
	require.Nil(t, o.Result, "nothing ran")
}
