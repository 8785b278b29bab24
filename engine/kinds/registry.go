package kinds

import (
	"fmt"

	"pslab/engine/experiment"
)

// Registry returns every experiment kind: the union of the per-paper maps,
// each an explicit literal in the file of its paper. Adding a kind means
// writing its function and adding one entry to its paper's map.
func Registry() experiment.Registry {
	all := experiment.Registry{}
	for _, part := range []experiment.Registry{beyondKinds(), cynthiaKinds(), icpe20Kinds(), mascots18Kinds(), zhangKinds()} {
		for name, k := range part {
			if _, dup := all[name]; dup {
				panic(fmt.Sprintf("kinds: kind %q registered twice", name))
			}
			all[name] = k
		}
	}
	return all
}
