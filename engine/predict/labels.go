package predict

import (
	"fmt"
	"strings"

	"pslab/engine/sim"
)

// LabelFor is the model's legend name under synchronization mode y: Label,
// except Cynthia under BSP, which runs Cynthia's own BSP equations
// (cynthia.ModelCynthia), not icpe20's restatement.
func (m Model) LabelFor(y sim.Sync) string {
	if m == Cynthia && y == sim.BSP {
		return "Cynthia (own BSP model)"
	}
	return m.Label()
}

// Label is the model's legend name under ASP, as the icpe20-throughput
// experiments write it (LabelFor names the model under either mode).
func (m Model) Label() string {
	if _, ok := m.variant(); ok {
		return fmt.Sprintf("Lin et al. MVA (%s)", strings.TrimPrefix(string(m), "mva-"))
	}
	switch m {
	case Simulator:
		return "icpe20 simulator"
	case Cynthia:
		return "Cynthia (icpe20 restatement)"
	case Zhang:
		return "Zhang et al. sync PS"
	}
	return string(m)
}

// Tag is the model's name in result tables (dataset.ResultSchema's model
// column), as the icpe20-throughput experiments write it.
func (m Model) Tag() string {
	if _, ok := m.variant(); ok {
		return "mascots18-" + string(m)
	}
	if m == Simulator {
		return "icpe20-simulator"
	}
	return string(m)
}
