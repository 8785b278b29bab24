package kinds

import (
	"fmt"

	"pslab/engine/experiment"
	"pslab/engine/kinds/beyond"
	"pslab/engine/kinds/cynthia"
	"pslab/engine/kinds/icpe20"
	"pslab/engine/kinds/mascots18"
	"pslab/engine/kinds/zhang"
)

// Registry returns every experiment kind: the union of the per-paper
// registries, each an explicit literal in its package's kinds.go. Adding a
// kind means writing its function in its paper's package and adding one
// entry to that package's Kinds.
func Registry() experiment.Registry {
	all := experiment.Registry{}
	for _, part := range []experiment.Registry{beyond.Kinds(), cynthia.Kinds(), icpe20.Kinds(), mascots18.Kinds(), zhang.Kinds()} {
		for name, k := range part {
			if _, dup := all[name]; dup {
				panic(fmt.Sprintf("kinds: kind %q registered twice", name))
			}
			all[name] = k
		}
	}
	return all
}
