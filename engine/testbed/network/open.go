package network

import (
	"context"
	"fmt"
	"io"
)

// Open picks the network: namespaces when asked or (auto) when
// root and iproute2 are there and namespaces work; loopback otherwise.
// Leftover namespaces are always an error, never a reason to fall back.
func Open(ctx context.Context, mode string, hosts int, stderr io.Writer) (Hosts, error) {
	if err := CheckMode(mode); err != nil {
		return nil, fmt.Errorf("testbed run: %w", err)
	}
	if mode == "loopback" {
		return &loopback{}, nil
	}
	if why := NetnsAvailable(); why != nil {
		if mode == "netns" {
			return nil, fmt.Errorf("testbed run: network namespaces unavailable: %v", why)
		}
		fmt.Fprintf(stderr, "testbed: network namespaces unavailable (%v): using loopback with token buckets\n", why)
		return &loopback{}, nil
	}
	if left, err := Leftovers(ctx); err != nil || len(left) > 0 {
		if err != nil {
			return nil, err
		}
		return nil, leftoverError(left)
	}
	n, err := newNetns(ctx, hosts)
	if err != nil {
		if mode == "netns" || ctx.Err() != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "testbed: cannot build network namespaces (%v): using loopback with token buckets\n", err)
		return &loopback{}, nil
	}
	return n, nil
}

// CheckMode returns an error naming the flag -network unless mode is one
// of its values: auto (namespaces if root and iproute2, else loopback),
// netns or loopback.
func CheckMode(mode string) error {
	switch mode {
	case "auto", "netns", "loopback":
		return nil
	}
	return fmt.Errorf("-network %q, want auto, netns or loopback", mode)
}

// BurstTime is the time the shaper's burst lets through unshaped after an
// idle period, per step, on an unstretched link of rate bytes/s: the
// burst of the network mode in bytes (Link.BurstBytes: tc htb or tbf in
// namespaces, the token bucket of NewShaper on loopback) over the rate,
// once per direction (s).
func BurstTime(mode string, rate float64) float64 {
	return 2 * Link{Rate: rate}.BurstBytes(mode) / rate
}
