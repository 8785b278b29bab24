package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pslab/engine/confine"
	"pslab/engine/testbed/training"
	"pslab/engine/tomlfile"
)

// Config is one measured configuration of the collection
// (datasets/testbed/configs.toml): a model, its scale factors and
// communication scheme, and the measurement protocol.
type Config struct {
	// Name names the output directory datasets/testbed/<Name>/.
	Name string
	// Model is a profile name in ProfileDir ("alexnet" reads
	// alexnet.graph.txt) or "toy".
	Model string
	// ProfileDir holds the PipeDream profiles (relative paths are relative
	// to the repository root); LoadConfigs keeps it inside the root.
	ProfileDir  string
	Batch       int     // examples per step per worker (0: the profile's)
	DeviceSpeed float64 // compute times are divided by it
	BytesScale  float64 // tensor sizes are multiplied by it
	// BandwidthMbit is the NIC rate B of every host, per direction, in
	// Mbit/s (10⁶ bits/s).
	BandwidthMbit float64
	Servers       int
	Sync          string
	Transport     string
	Order         string
	Seed          uint64
	Window        int64 // HTTP/2 stream window, multiplexed (bytes)
	ConnWindow    int64 // HTTP/2 connection window, multiplexed (bytes)
	// Workers lists the W of the throughput sweep.
	Workers []int
	// Repetitions of each W.
	Repetitions int
	// Steps per worker of each throughput run, of which the last Average
	// are time-averaged.
	Steps, Average int
	// ProfileSteps of the 1-worker profiling run; PhaseSkip first steps
	// are left out of the phase averages (warm-up).
	ProfileSteps, PhaseSkip int
	// MaxRepetitions caps the repetitions of a point: beyond Repetitions,
	// runs are added one at a time until the 95% interval over the runs
	// is within ±accounting.MaxCI or this many ran (0: Repetitions, a
	// fixed count). Key max_repetitions; see the engine/testbed doc,
	// "Intervals from repetitions".
	MaxRepetitions int `json:",omitempty"`
	// Dilations are the factors k > 1, increasing, by which the stretched
	// points are measured again with every time stretched (device_speed
	// and bandwidth_mbit ÷ k); each after the first only where the one
	// before moved more than its own interval. Empty: no dilation. Key
	// dilations; engine/testbed doc, "Dilation sensitivity".
	Dilations []float64 `json:",omitempty"`
	// DilatePoints is how many points are stretched: the one of highest
	// contention, the largest W, then by contention (0 with Dilations
	// set: DefaultDilatePoints). Key dilate_points.
	DilatePoints int `json:",omitempty"`
	// MaxMinutes caps the collection time of the configuration (min):
	// -dry and -strict refuse a configuration predicted longer, and a run
	// adds no repetition beyond Repetitions once it is spent (0: no cap).
	// Key max_minutes.
	MaxMinutes float64 `json:",omitempty"`
	// StartStaggerMs delays worker i's first step by i·StartStaggerMs
	// milliseconds (at dilation 1; Stretch stretches it too): an
	// intervention that sets the workers' initial phases, for finding
	// what selects an operating mode (0: all start together). Key
	// start_stagger_ms.
	StartStaggerMs float64 `json:",omitempty"`
	// Source is "file:line" of the configuration's [[config]] header
	// (empty for configurations not read from a file); not hashed.
	Source string `json:"-"`
}

// Bandwidth returns B in bytes/s.
func (c *Config) Bandwidth() float64 { return c.BandwidthMbit * 1e6 / 8 }

// Job returns the job of a run with w workers. root resolves a relative
// profile directory.
func (c *Config) Job(root string, w int) training.Job {
	prof := c.Model
	if prof != "toy" {
		dir := c.ProfileDir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		prof = filepath.Join(dir, c.Model+".graph.txt")
		// pslab's import of the same profile (datasets/zoo/<model>.arrow)
		// when the directory holds one: the repository then needs no
		// checkout of the raw PipeDream files.
		if a := filepath.Join(dir, c.Model+".arrow"); fileExists(a) {
			prof = a
		}
	}
	return training.Job{Profile: prof, Batch: c.Batch, DeviceSpeed: c.DeviceSpeed, BytesScale: c.BytesScale,
		Servers: c.Servers, Workers: w, Sync: c.Sync, Transport: c.Transport, Order: c.Order,
		Seed: c.Seed, Window: c.Window, ConnWindow: c.ConnWindow,
		StartStagger: time.Duration(math.Round(c.StartStaggerMs * 1e6))}
}

// fileExists reports whether path names an existing regular file.
func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// configFields is one table of the file; unset fields come from
// [defaults].
type configFields struct {
	Name          *string  `toml:"name"`
	Model         *string  `toml:"model"`
	ProfileDir    *string  `toml:"profile_dir"`
	Batch         *int     `toml:"batch"`
	DeviceSpeed   *float64 `toml:"device_speed"`
	BytesScale    *float64 `toml:"bytes_scale"`
	BandwidthMbit *float64 `toml:"bandwidth_mbit"`
	Servers       *int     `toml:"servers"`
	Sync          *string  `toml:"sync"`
	Transport     *string  `toml:"transport"`
	Order         *string  `toml:"order"`
	Seed          *int64   `toml:"seed"`
	Window        *int64   `toml:"window"`
	ConnWindow    *int64   `toml:"conn_window"`
	Workers       *[]int   `toml:"workers"`
	Repetitions   *int     `toml:"repetitions"`
	Steps         *int     `toml:"steps"`
	Average       *int     `toml:"average"`
	ProfileSteps  *int     `toml:"profile_steps"`
	PhaseSkip     *int     `toml:"phase_skip"`
	// Optional keys (issue 29): unset in both the table and [defaults]
	// they take the zero value (Config).
	MaxRepetitions *int       `toml:"max_repetitions"`
	Dilations      *[]float64 `toml:"dilations"`
	DilatePoints   *int       `toml:"dilate_points"`
	MaxMinutes     *float64   `toml:"max_minutes"`
	StartStaggerMs *float64   `toml:"start_stagger_ms"`
}

type configFile struct {
	Defaults    configFields      `toml:"defaults"`
	Config      []configFields    `toml:"config"`
	Calibration calibrationFields `toml:"calibration"`
}

// LoadConfigs decodes the collection file strictly (unknown keys and
// wrong types are errors with file:line) and returns every configuration
// with defaults applied and validated. root is the directory relative
// profile_dir values are relative to (the repository root): every path key
// must resolve inside it, symbolic links followed. A value of [defaults]
// that is invalid on its own is reported at its key's line under
// [defaults]; other errors name the file, the line of the configuration's
// [[config]] header (of the key, for profile_dir) and the field.
func LoadConfigs(path, root string) ([]Config, error) {
	var f configFile
	tf, err := tomlfile.Decode(path, &f)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(b), "\n")
	var headers []int
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "[[config]]") {
			headers = append(headers, i+1)
		}
	}
	if len(f.Config) == 0 {
		return nil, tf.Errorf(nil, "no [[config]] tables")
	}
	realRoot, err := confine.RealPath(root)
	if err != nil {
		return nil, fmt.Errorf("%s: root %s: %w", path, root, err)
	}
	if err := checkDefaults(tf, f.Defaults, root, realRoot); err != nil {
		return nil, err
	}
	seen := map[string]int{}
	out := make([]Config, len(f.Config))
	for i, cf := range f.Config {
		line, next := 1, 0
		if i < len(headers) {
			line = headers[i]
		}
		if i+1 < len(headers) {
			next = headers[i+1]
		}
		c, err := merge(cf, f.Defaults)
		if err == nil && cf.ProfileDir != nil {
			if err := confinePath(root, realRoot, *cf.ProfileDir); err != nil {
				return nil, fmt.Errorf("%s:%d: config %d %q: field profile_dir: %w", path, tableKeyLine(lines, line, next, "profile_dir"), i+1, c.Name, err)
			}
		}
		if err == nil {
			err = c.Validate()
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: config %d %q: %w", path, line, i+1, c.Name, err)
		}
		if first, dup := seen[c.Name]; dup {
			return nil, fmt.Errorf("%s:%d: config name %q repeats config %d", path, line, c.Name, first)
		}
		seen[c.Name] = i + 1
		c.Source = fmt.Sprintf("%s:%d", path, line)
		out[i] = c
	}
	return out, nil
}

func merge(c, d configFields) (Config, error) {
	var out Config
	var missing []string
	str := func(name string, a, b *string, dst *string) {
		switch {
		case a != nil:
			*dst = *a
		case b != nil:
			*dst = *b
		default:
			missing = append(missing, name)
		}
	}
	num := func(name string, a, b *float64, dst *float64) {
		switch {
		case a != nil:
			*dst = *a
		case b != nil:
			*dst = *b
		default:
			missing = append(missing, name)
		}
	}
	integer := func(name string, a, b *int, dst *int) {
		switch {
		case a != nil:
			*dst = *a
		case b != nil:
			*dst = *b
		default:
			missing = append(missing, name)
		}
	}
	big := func(name string, a, b *int64, dst *int64) {
		switch {
		case a != nil:
			*dst = *a
		case b != nil:
			*dst = *b
		default:
			missing = append(missing, name)
		}
	}
	if c.Name != nil {
		out.Name = *c.Name
	} else {
		missing = append(missing, "name")
	}
	str("model", c.Model, d.Model, &out.Model)
	str("profile_dir", c.ProfileDir, d.ProfileDir, &out.ProfileDir)
	integer("batch", c.Batch, d.Batch, &out.Batch)
	num("device_speed", c.DeviceSpeed, d.DeviceSpeed, &out.DeviceSpeed)
	num("bytes_scale", c.BytesScale, d.BytesScale, &out.BytesScale)
	num("bandwidth_mbit", c.BandwidthMbit, d.BandwidthMbit, &out.BandwidthMbit)
	integer("servers", c.Servers, d.Servers, &out.Servers)
	str("sync", c.Sync, d.Sync, &out.Sync)
	str("transport", c.Transport, d.Transport, &out.Transport)
	str("order", c.Order, d.Order, &out.Order)
	var seed int64
	big("seed", c.Seed, d.Seed, &seed)
	out.Seed = uint64(seed)
	big("window", c.Window, d.Window, &out.Window)
	big("conn_window", c.ConnWindow, d.ConnWindow, &out.ConnWindow)
	switch {
	case c.Workers != nil:
		out.Workers = *c.Workers
	case d.Workers != nil:
		out.Workers = *d.Workers
	default:
		missing = append(missing, "workers")
	}
	integer("repetitions", c.Repetitions, d.Repetitions, &out.Repetitions)
	integer("steps", c.Steps, d.Steps, &out.Steps)
	integer("average", c.Average, d.Average, &out.Average)
	integer("profile_steps", c.ProfileSteps, d.ProfileSteps, &out.ProfileSteps)
	integer("phase_skip", c.PhaseSkip, d.PhaseSkip, &out.PhaseSkip)
	mergeOptional(&out, c, d)
	if len(missing) > 0 {
		return out, fmt.Errorf("missing field %s (set it in the table or in [defaults])", strings.Join(missing, ", "))
	}
	if seed < 0 {
		return out, fmt.Errorf("field seed: negative value %d", seed)
	}
	return out, nil
}

// MaxWorkers and MaxSteps bound a configuration: every worker is an OS
// process on the hosts of one collection, and a step count above MaxSteps
// would run for days; larger values are refused rather than attempted.
const (
	MaxWorkers = 256
	MaxSteps   = 1_000_000
)

// Validate checks a configuration; the error names the field.
func (c *Config) Validate() error {
	switch {
	case c.Name == "" || strings.ContainsAny(c.Name, "/\\ ") || strings.HasPrefix(c.Name, "."):
		return fmt.Errorf("field name: %q is not a plain directory name", c.Name)
	case !(c.BandwidthMbit > 0) || math.IsInf(c.BandwidthMbit, 0):
		return fmt.Errorf("field bandwidth_mbit: %v, need a finite value > 0", c.BandwidthMbit)
	case len(c.Workers) == 0:
		return fmt.Errorf("field workers: empty")
	case c.Repetitions < 1:
		return fmt.Errorf("field repetitions: %d, need ≥ 1", c.Repetitions)
	case c.Steps < 2 || c.Steps > MaxSteps:
		return fmt.Errorf("field steps: %d, need 2 ≤ steps ≤ %d", c.Steps, MaxSteps)
	case c.Average < 1 || c.Average > c.Steps:
		return fmt.Errorf("field average: %d, need 1 ≤ average ≤ steps (%d)", c.Average, c.Steps)
	case c.ProfileSteps < c.PhaseSkip+2:
		return fmt.Errorf("field profile_steps: %d, need ≥ phase_skip+2 = %d", c.ProfileSteps, c.PhaseSkip+2)
	case c.PhaseSkip < 0:
		return fmt.Errorf("field phase_skip: negative value %d", c.PhaseSkip)
	}
	for _, w := range c.Workers {
		if w < 1 || w > MaxWorkers {
			return fmt.Errorf("field workers: %d, need 1 ≤ W ≤ %d (testbed.MaxWorkers)", w, MaxWorkers)
		}
	}
	if err := c.validateProtocol(); err != nil {
		return err
	}
	j := c.Job(".", 1)
	if err := j.Validate(); err != nil {
		return fmt.Errorf("%w", err)
	}
	return nil
}

// Hash is a short hash of everything that defines the measurement of c
// (every field, scale factors and step counts included): a committed
// dataset with the same hash need not be measured again.
func (c Config) Hash() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // a Config always marshals
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// Scale returns c with its step counts multiplied by f (at least 4 steps,
// 2 averaged, 3 profiled), for quick runs.
func (c Config) Scale(f float64) Config {
	if f == 1 {
		return c
	}
	sc := func(n, lo int) int { return max(lo, int(math.Ceil(float64(n)*f))) }
	c.Steps = sc(c.Steps, 4)
	c.Average = min(sc(c.Average, 2), c.Steps)
	c.ProfileSteps = sc(c.ProfileSteps, c.PhaseSkip+3)
	return c
}
