package config

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"pslab/engine/confine"
	"pslab/engine/testbed/training"
	"pslab/engine/tomlfile"
)

// checkDefaults checks every value set in [defaults] on its own, so that
// an invalid default (a NaN device_speed) is reported at its own key and
// line rather than at the header of the first configuration that inherits
// it; realRoot is the resolved root profile_dir must stay inside.
// Constraints between fields (average ≤ steps) are left to Config.Validate.
func checkDefaults(tf *tomlfile.File, d configFields, root, realRoot string) error {
	key, err := d.checkValues()
	if err == nil && d.Name != nil {
		key, err = "name", errors.New("a configuration's own name cannot be a default")
	}
	if err == nil && d.ProfileDir != nil {
		key, err = "profile_dir", confinePath(root, realRoot, *d.ProfileDir)
	}
	if err != nil {
		return tf.Errorf([]string{"defaults", key}, "[defaults] field %s: %v", key, err)
	}
	return nil
}

// checkValues returns the first field set in c whose value is invalid
// whatever the other fields are, and why.
func (c *configFields) checkValues() (key string, err error) {
	positive := func(v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%v, need a finite value > 0", v)
		}
		return nil
	}
	atLeast := func(v, lo int) error {
		if v < lo {
			return fmt.Errorf("%d, need ≥ %d", v, lo)
		}
		return nil
	}
	nonNegative := func(v int64) error {
		if v < 0 {
			return fmt.Errorf("negative value %d", v)
		}
		return nil
	}
	checks := []struct {
		key string
		set bool
		err func() error
	}{
		{"batch", c.Batch != nil, func() error { return atLeast(*c.Batch, 0) }},
		{"device_speed", c.DeviceSpeed != nil, func() error { return positive(*c.DeviceSpeed) }},
		{"bytes_scale", c.BytesScale != nil, func() error {
			if v := *c.BytesScale; !(v > 0 && v <= 1) {
				return fmt.Errorf("%v, need 0 < bytes_scale ≤ 1", v)
			}
			return nil
		}},
		{"bandwidth_mbit", c.BandwidthMbit != nil, func() error { return positive(*c.BandwidthMbit) }},
		{"servers", c.Servers != nil, func() error { return atLeast(*c.Servers, 1) }},
		{"sync", c.Sync != nil, func() error {
			if s := *c.Sync; s != training.ASP && s != training.BSP {
				return fmt.Errorf("%q, want asp or bsp", s)
			}
			return nil
		}},
		{"transport", c.Transport != nil, func() error {
			if s := *c.Transport; s != training.Multiplexed && s != training.Ordered {
				return fmt.Errorf("%q, want multiplexed or ordered", s)
			}
			return nil
		}},
		{"order", c.Order != nil, func() error { _, err := training.ParseOrder(*c.Order); return err }},
		{"seed", c.Seed != nil, func() error { return nonNegative(*c.Seed) }},
		{"workers", c.Workers != nil, func() error {
			if len(*c.Workers) == 0 {
				return errors.New("empty")
			}
			for _, w := range *c.Workers {
				if w < 1 || w > MaxWorkers {
					return fmt.Errorf("%d, need 1 ≤ W ≤ %d (testbed.MaxWorkers)", w, MaxWorkers)
				}
			}
			return nil
		}},
		{"repetitions", c.Repetitions != nil, func() error { return atLeast(*c.Repetitions, 1) }},
		{"steps", c.Steps != nil, func() error {
			if v := *c.Steps; v < 2 || v > MaxSteps {
				return fmt.Errorf("%d, need 2 ≤ steps ≤ %d", v, MaxSteps)
			}
			return nil
		}},
		{"average", c.Average != nil, func() error { return atLeast(*c.Average, 1) }},
		{"profile_steps", c.ProfileSteps != nil, func() error { return atLeast(*c.ProfileSteps, 2) }},
		{"phase_skip", c.PhaseSkip != nil, func() error { return nonNegative(int64(*c.PhaseSkip)) }},
	}
	for _, ch := range checks {
		if !ch.set {
			continue
		}
		if err := ch.err(); err != nil {
			return ch.key, err
		}
	}
	return c.checkProtocol()
}

// confinePath returns an error if dir, a path key of the file relative to
// root (or absolute), leaves root: lexically ("../../etc") or once every
// symbolic link is resolved (the error then names the resolved target).
// realRoot is confine.RealPath(root). A tail of dir that does not exist yet is
// checked up to its last existing directory. "" is root itself.
func confinePath(root, realRoot, dir string) error {
	p := dir
	if !filepath.IsAbs(p) {
		if dir != "" && !filepath.IsLocal(dir) {
			return fmt.Errorf("%q leaves the root %s it is relative to", dir, root)
		}
		p = filepath.Join(root, dir)
	}
	resolved, err := confine.RealPath(p)
	if err != nil {
		return fmt.Errorf("%q: %w", dir, err)
	}
	if !confine.Within(realRoot, resolved) {
		return fmt.Errorf("%q resolves to %s, outside the root %s", dir, resolved, realRoot)
	}
	return nil
}

// tableKeyLine returns the line (1-based) of the assignment of key in the
// table whose header is on line header, the next header (if any) being on
// line next (0: none); header if the key is not found there.
func tableKeyLine(lines []string, header, next int, key string) int {
	end := len(lines)
	if next > 0 {
		end = min(end, next-1)
	}
	for i := header; i < end; i++ {
		k, _, ok := strings.Cut(lines[i], "=")
		if ok && strings.Trim(strings.TrimSpace(k), `"'`) == key {
			return i + 1
		}
	}
	return header
}
