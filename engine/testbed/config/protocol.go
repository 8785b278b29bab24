package config

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"pslab/engine/testbed/training"
)

// Bounds of the protocol keys of issue 29 (Config.MaxRepetitions,
// Dilations, DilatePoints, MaxMinutes).
const (
	// MaxRepetitionsCap bounds max_repetitions.
	MaxRepetitionsCap = 1000
	// MaxDilation bounds every factor of dilations: a run stretched more
	// takes that many times as long.
	MaxDilation = 16
	// MaxDilations bounds the length of dilations.
	MaxDilations = 4
	// DefaultDilatePoints is Config.DilatePoints when dilations are set
	// and dilate_points is not: the point of highest contention and the
	// largest W (one point when they are the same).
	DefaultDilatePoints = 2
)

// mergeOptional sets the optional protocol keys of out from the table c,
// else from the defaults d; unset in both they stay zero.
func mergeOptional(out *Config, c, d configFields) {
	pick := func(a, b *int) int {
		switch {
		case a != nil:
			return *a
		case b != nil:
			return *b
		}
		return 0
	}
	out.MaxRepetitions = pick(c.MaxRepetitions, d.MaxRepetitions)
	out.DilatePoints = pick(c.DilatePoints, d.DilatePoints)
	switch {
	case c.Dilations != nil:
		out.Dilations = slices.Clone(*c.Dilations)
	case d.Dilations != nil:
		out.Dilations = slices.Clone(*d.Dilations)
	}
	switch {
	case c.MaxMinutes != nil:
		out.MaxMinutes = *c.MaxMinutes
	case d.MaxMinutes != nil:
		out.MaxMinutes = *d.MaxMinutes
	}
	switch {
	case c.StartStaggerMs != nil:
		out.StartStaggerMs = *c.StartStaggerMs
	case d.StartStaggerMs != nil:
		out.StartStaggerMs = *d.StartStaggerMs
	}
}

// RepCap is the largest number of repetitions of a point: MaxRepetitions,
// or Repetitions when it is 0.
func (c *Config) RepCap() int {
	if c.MaxRepetitions == 0 {
		return c.Repetitions
	}
	return c.MaxRepetitions
}

// StretchedPoints is how many points of the configuration are measured
// again stretched: 0 without Dilations, else DilatePoints (or
// DefaultDilatePoints) but at most len(Workers).
func (c *Config) StretchedPoints() int {
	if len(c.Dilations) == 0 {
		return 0
	}
	n := c.DilatePoints
	if n == 0 {
		n = DefaultDilatePoints
	}
	return min(n, len(c.Workers))
}

// Stretch returns c with every time stretched k× (time dilation; engine/testbed
// doc, "Dilation sensitivity"): device_speed and bandwidth_mbit divided
// by k, bytes_scale and the windows unchanged, so that every compute and
// transfer time of a run takes k times as long and the emulated cluster
// (bandwidth B/(bytes_scale·device_speed)) is the same. The network's own
// time constants are stretched by network.Link.Dilation.
func (c Config) Stretch(k float64) Config {
	c.DeviceSpeed /= k
	c.BandwidthMbit /= k
	c.StartStaggerMs *= k
	return c
}

// checkProtocol returns the first protocol key set in f whose value is
// invalid on its own, and why.
func (f *configFields) checkProtocol() (key string, err error) {
	if f.MaxRepetitions != nil {
		if v := *f.MaxRepetitions; v < 1 || v > MaxRepetitionsCap {
			return "max_repetitions", fmt.Errorf("%d, need 1 ≤ max_repetitions ≤ %d", v, MaxRepetitionsCap)
		}
	}
	if f.Dilations != nil {
		if err := checkDilations(*f.Dilations); err != nil {
			return "dilations", err
		}
	}
	if f.DilatePoints != nil && *f.DilatePoints < 1 {
		return "dilate_points", fmt.Errorf("%d, need ≥ 1", *f.DilatePoints)
	}
	if f.MaxMinutes != nil {
		if v := *f.MaxMinutes; !(v >= 0) || math.IsInf(v, 0) {
			return "max_minutes", fmt.Errorf("%v, need a finite value ≥ 0", v)
		}
	}
	if f.StartStaggerMs != nil {
		if v, most := *f.StartStaggerMs, training.MaxStartStagger.Milliseconds(); !(v >= 0 && v <= float64(most)) {
			return "start_stagger_ms", fmt.Errorf("%v, need 0 ≤ start_stagger_ms ≤ %d", v, most)
		}
	}
	return "", nil
}

// checkDilations checks a dilations list: at most MaxDilations finite
// factors in (1, MaxDilation], increasing.
func checkDilations(ks []float64) error {
	if len(ks) > MaxDilations {
		return fmt.Errorf("%d factors, at most %d", len(ks), MaxDilations)
	}
	for i, k := range ks {
		if !(k > 1 && k <= MaxDilation) {
			return fmt.Errorf("%v, need 1 < k ≤ %d", k, MaxDilation)
		}
		if i > 0 && !(k > ks[i-1]) {
			return fmt.Errorf("%v after %v, need increasing factors", k, ks[i-1])
		}
	}
	return nil
}

// validateProtocol checks the protocol keys against the rest of c.
func (c *Config) validateProtocol() error {
	switch {
	case c.MaxRepetitions != 0 && c.MaxRepetitions < c.Repetitions:
		return fmt.Errorf("field max_repetitions: %d, need ≥ repetitions (%d)", c.MaxRepetitions, c.Repetitions)
	case c.MaxRepetitions > MaxRepetitionsCap:
		return fmt.Errorf("field max_repetitions: %d, need ≤ %d", c.MaxRepetitions, MaxRepetitionsCap)
	case c.DilatePoints < 0:
		return fmt.Errorf("field dilate_points: %d, need ≥ 1", c.DilatePoints)
	case c.DilatePoints > 0 && len(c.Dilations) == 0:
		return errors.New("field dilate_points: set without dilations")
	case !(c.MaxMinutes >= 0) || math.IsInf(c.MaxMinutes, 0):
		return fmt.Errorf("field max_minutes: %v, need a finite value ≥ 0", c.MaxMinutes)
	case !(c.StartStaggerMs >= 0 && c.StartStaggerMs <= float64(training.MaxStartStagger.Milliseconds())):
		return fmt.Errorf("field start_stagger_ms: %v, need 0 ≤ start_stagger_ms ≤ %d", c.StartStaggerMs, training.MaxStartStagger.Milliseconds())
	}
	if err := checkDilations(c.Dilations); err != nil {
		return fmt.Errorf("field dilations: %w", err)
	}
	return nil
}
