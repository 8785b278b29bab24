package measured

import (
	"os"
	"path/filepath"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/zoo"
)

// Profile reads the named input as a per-layer profile: an Arrow
// dataset of zoo.ProfileSchema (.arrow, e.g. datasets/zoo/alexnet.arrow) or
// a PipeDream graph.txt (any other name).
func Profile(env *experiment.Env, input string) (*zoo.Profile, error) {
	path, err := env.InputPath(input)
	if err != nil {
		return nil, err
	}
	fail := func(err error) error {
		return env.Spec.Errorf([]string{"inputs", input}, "input %q: %v", input, err)
	}
	if strings.HasSuffix(path, ".arrow") {
		t, err := env.Input(input, zoo.ProfileSchema)
		if err != nil {
			return nil, err
		}
		p, err := zoo.ProfileFromTable(t)
		if err != nil {
			return nil, fail(err)
		}
		return p, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fail(err)
	}
	defer f.Close()
	p, err := zoo.Parse(f, filepath.Base(path))
	if err != nil {
		return nil, fail(err)
	}
	return p, nil
}
