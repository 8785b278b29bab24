package sim

import (
	"fmt"
	"math/big"
)

// MaxEnumeratedLinks is the largest W·M for which LinkStates enumerates the
// states (2^20 ≈ 10⁶ states).
const MaxEnumeratedLinks = 20

// LinkStateCount returns 2^(W·M), the number of active/inactive states of the
// W·M downlinks (and, equally, of the uplinks) with W workers and M
// parameter servers (icpe20 §5, Fig. 24).
func LinkStateCount(workers, servers int) (*big.Int, error) {
	if err := checkLinks(workers, servers); err != nil {
		return nil, err
	}
	return new(big.Int).Lsh(big.NewInt(1), uint(workers*servers)), nil
}

// LinkStates enumerates the 2^(W·M) downlink states. State k has the link of
// worker w with PS i active, states[k][w·M+i] == true, iff bit w·M+i of k is
// set. It returns an error when W·M exceeds MaxEnumeratedLinks.
func LinkStates(workers, servers int) ([][]bool, error) {
	if err := checkLinks(workers, servers); err != nil {
		return nil, err
	}
	links := workers * servers
	if links > MaxEnumeratedLinks {
		return nil, fmt.Errorf("sim: LinkStates: W·M = %d links; enumeration is limited to %d", links, MaxEnumeratedLinks)
	}
	n := 1 << links
	flat := make([]bool, n*links)
	states := make([][]bool, n)
	for k := range n {
		st := flat[k*links : (k+1)*links : (k+1)*links]
		for b := range links {
			st[b] = k>>b&1 == 1
		}
		states[k] = st
	}
	return states, nil
}

func checkLinks(workers, servers int) error {
	if workers < 1 {
		return fmt.Errorf("sim: workers: %d; want ≥ 1", workers)
	}
	if servers < 1 {
		return fmt.Errorf("sim: servers: %d; want ≥ 1", servers)
	}
	if workers > 1<<20 || servers > 1<<20 {
		return fmt.Errorf("sim: %d workers × %d servers: too many links", workers, servers)
	}
	return nil
}
