package experiment

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"pslab/engine/confine"
	"pslab/engine/tomlfile"
)

// Papers are the values allowed in Spec.Paper; "beyond" marks experiments
// that extend the papers.
var Papers = []string{"icpe20", "mascots18", "cynthia", "zhang", "beyond"}

// Spec is one experiment file.
type Spec struct {
	ID    string // "<paper>-<name>", where experiments/<paper>/<name>.toml is the file
	Title string // figure title
	Paper string
	Kind  string // registry key of the Go function that runs it
	// Description says what the experiment shows, in one or two sentences.
	Description string
	// Status is "reproduced", "partial" or "deviates"; the README table
	// shows it. Its definition is checked against the golden file by
	// CheckStatus: "deviates" when a paper claim is missed (a check
	// carries a deviation), else "partial" when the paper's inputs or
	// measurements are missing so that only derived and structural checks
	// apply, or a claim is inconclusive, else "reproduced".
	Status string
	Seed   uint64
	// Inputs maps input names to dataset paths relative to the repository root.
	Inputs map[string]string
	Sweep  Sweep
	Models []string
	Plot   Plot
	Params toml.Primitive // kind-specific, decoded strictly by the kind
	// Limits bound worker and step counts (see DefaultMaxWorkers), simulator
	// events and the analytical kinds' work (DefaultMaxModelWork).
	Limits Limits

	// Path is the spec file; Name its base name without extension.
	Path, Name string
	file       *tomlfile.File
}

// Plot describes the figure.
type Plot struct {
	Type   string // "line" (default) or "bar"
	XLabel string `toml:"x_label"` // axis label with unit, e.g. "workers"
	YLabel string `toml:"y_label"` // axis label with unit, e.g. "throughput (examples/s)"
	LogX   bool   `toml:"log_x"`
	LogY   bool   `toml:"log_y"`
	// Legend is where the legend goes: "top left", "top right" (default),
	// "bottom left", "bottom right".
	Legend string
	// Caption is a note printed under the title (e.g. "assumed β0, β1").
	Caption string
	// XUnit and YUnit are the axes' units where the label does not name
	// one in the form LabelUnit reads ("1" for a ratio or fraction); the
	// result table records them as the unit of x and of y, y_lo, y_hi.
	XUnit string `toml:"x_unit"`
	YUnit string `toml:"y_unit"`
	// XCategories draws the x values as separate configurations (evenly
	// spaced, series side by side, not joined) instead of a sweep.
	XCategories bool `toml:"x_categories"`
	// Panels split the figure by data source or unit: [[plot.panel]]
	// match = "testbed" (prefix of series names) or contains = "cost",
	// title = "…" (see figure.Spec).
	Panels []PlotPanel `toml:"panel"`
	// Bound is the paper's claimed relative error bound (0.1 for "within
	// 10%"), drawn as a band around each model a measurement is judged
	// by; BoundLabel names it in the legend.
	Bound      float64
	BoundLabel string `toml:"bound_label"`
	// Lines are reference lines: [[plot.line]] y, label, and on a bar
	// chart optionally series and categories (a mark over those bars).
	Lines []PlotLine `toml:"line"`
}

// PlotPanel is one [[plot.panel]]: the series whose names start with
// Match and contain Contains, titled Title.
type PlotPanel struct {
	Match    string
	Contains string
	Title    string
}

// PlotLine is one [[plot.line]]: a horizontal line at Y named Label; on a
// bar chart with Series, a mark over that series' bars in the categories
// starting with one of Categories (all if empty).
type PlotLine struct {
	Y          float64
	Label      string
	Series     string
	Categories []string
}

// Load decodes the spec file at path, experiments/<paper>/<name>.toml: the
// id must be "<paper>-<name>" and the directory the paper. Every input path
// must be relative; CheckInputs also keeps it inside the repository.
func Load(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse is Load on the content b of the spec file named path.
func Parse(path string, b []byte) (*Spec, error) {
	var s Spec
	f, err := tomlfile.DecodeBytes(path, b, &s, "params")
	if err != nil {
		return nil, err
	}
	s.file, s.Path = f, path
	s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if err := f.Require("id", "title", "paper", "kind", "description", "status", "plot.x_label", "plot.y_label"); err != nil {
		// Keys are matched case-insensitively by the decoder; report the
		// TOML spelling.
		return nil, err
	}
	if !slices.Contains(Papers, s.Paper) {
		return nil, f.Errorf([]string{"paper"}, "unknown paper %q (want one of %v)", s.Paper, Papers)
	}
	if want := s.Paper + "-" + s.Name; s.ID != want {
		return nil, f.Errorf([]string{"id"}, "id %q does not match the file name (want %q for %s)", s.ID, want, path)
	}
	if dir := filepath.Base(filepath.Dir(path)); dir != s.Paper {
		return nil, f.Errorf([]string{"paper"}, "paper %q but the file is in directory %q", s.Paper, dir)
	}
	switch s.Status {
	case "reproduced", "partial", "deviates":
	default:
		return nil, f.Errorf([]string{"status"}, "status %q (want reproduced, partial or deviates)", s.Status)
	}
	switch s.Plot.Type {
	case "", "line", "bar":
	default:
		return nil, f.Errorf([]string{"plot", "type"}, "plot type %q (want line or bar)", s.Plot.Type)
	}
	if s.Plot.Type == "bar" && s.Plot.LogY {
		return nil, f.Errorf([]string{"plot", "log_y"}, "a bar chart cannot have a log y axis")
	}
	switch s.Plot.Legend {
	case "", "top left", "top right", "bottom left", "bottom right":
	default:
		return nil, f.Errorf([]string{"plot", "legend"}, "legend position %q (want top left, top right, bottom left or bottom right)", s.Plot.Legend)
	}
	if key, err := s.Plot.check(); err != nil {
		return nil, f.Errorf(append([]string{"plot"}, key...), "%v", err)
	}
	// The sweep's values first (NaN passes every comparison), then the
	// limits on its workers, then its number of points: all from the
	// bounds, before any point is computed.
	if key, err := s.Sweep.validate(); err != nil {
		return nil, f.Errorf(sweepKey(key), "%v", err)
	}
	if err := s.checkLimits(b); err != nil {
		return nil, err
	}
	if _, key, err := s.Sweep.count(); err != nil {
		return nil, f.Errorf(sweepKey(key), "%v", err)
	}
	for name, p := range s.Inputs {
		if p == "" || filepath.IsAbs(p) {
			return nil, f.Errorf([]string{"inputs", name}, "input %q: path must be relative to the repository root", name)
		}
	}
	return &s, nil
}

// CheckInputs reports the first input (in name order) whose path leaves
// the repository whose root is root, naming the key and its line: lexically
// ("../../etc/passwd"), or through a symbolic link once every link is
// resolved (datasets/x.arrow linked to /etc/passwd; the error then names
// the resolved target). A path whose tail does not exist yet is checked up
// to its last existing directory (reading it fails later, naming the
// input). The runner calls it before an experiment runs; Load does not, so
// tests may point a spec in a temporary directory at the repository's
// datasets.
func (s *Spec) CheckInputs(root string) error {
	names := slices.Sorted(maps.Keys(s.Inputs))
	for _, name := range names {
		if p := s.Inputs[name]; !filepath.IsLocal(filepath.FromSlash(p)) {
			return s.Errorf([]string{"inputs", name}, "input %q = %q: path must be relative to the repository root and stay inside it", name, p)
		}
	}
	if len(names) == 0 {
		return nil
	}
	realRoot, err := confine.RealPath(root)
	if err != nil {
		return fmt.Errorf("repository root: %w", err)
	}
	for _, name := range names {
		p := s.Inputs[name]
		resolved, err := confine.RealPath(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return s.Errorf([]string{"inputs", name}, "input %q = %q: %v", name, p, err)
		}
		if confine.Within(realRoot, resolved) {
			continue
		}
		// A top-level directory that is itself a link (datasets/ on shared
		// storage) is the user's layout: an input may stay inside where
		// that directory resolves to, but no link below it may leave it.
		if top, rest, ok := strings.Cut(filepath.ToSlash(p), "/"); ok && rest != "" {
			if realTop, err := confine.RealPath(filepath.Join(root, top)); err == nil && confine.Within(realTop, resolved) {
				continue
			}
		}
		return s.Errorf([]string{"inputs", name}, "input %q = %q resolves to %s, outside the repository root %s (a symbolic link leaves it)", name, p, resolved, realRoot)
	}
	return nil
}

// sweepKey is the key path of a key under [sweep] ("": the table).
func sweepKey(key string) []string {
	if key == "" {
		return []string{"sweep"}
	}
	return []string{"sweep", key}
}

// Errorf returns an error located at the key path of the spec file.
func (s *Spec) Errorf(key []string, format string, args ...any) error {
	if s.file == nil {
		return fmt.Errorf("%s: %s", s.ID, fmt.Sprintf(format, args...))
	}
	return s.file.Errorf(key, format, args...)
}
