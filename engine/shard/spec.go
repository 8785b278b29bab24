package shard

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Spec is shard Index of Count. The zero value (Count 0) is no sharding:
// it owns every item.
type Spec struct {
	Index, Count int
}

// Parse parses "i/N" with integers 0 ≤ i < N. The error says what is
// wrong with s but does not name a flag; callers add it.
func Parse(s string) (Spec, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Spec{}, fmt.Errorf("%q: want i/N, shard i of N with 0 ≤ i < N (e.g. 0/4)", s)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	switch {
	case err1 != nil || err2 != nil:
		return Spec{}, fmt.Errorf("%q: want i/N with integers i and N (e.g. 0/4)", s)
	case n < 1:
		return Spec{}, fmt.Errorf("%q: the shard count N = %d must be ≥ 1", s, n)
	case i < 0 || i >= n:
		return Spec{}, fmt.Errorf("%q: the shard index i = %d must be in 0..%d (shards are numbered from 0, as Slurm array and Kubernetes completion indices are)", s, i, n-1)
	}
	return Spec{Index: i, Count: n}, nil
}

// Enabled reports whether s is a shard (Count ≥ 1), not the zero Spec.
func (s Spec) Enabled() bool { return s.Count > 0 }

// String returns "i/N", or "" for the zero Spec.
func (s Spec) String() string {
	if !s.Enabled() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Owns reports whether item k (0-based) of the partitioned list is s's:
// k mod Count = Index. The zero Spec owns every item.
func (s Spec) Owns(k int) bool {
	return !s.Enabled() || k%s.Count == s.Index
}

// Dir returns the directory of s under base: base/shard-<i>-of-<N>.
func (s Spec) Dir(base string) string {
	return filepath.Join(base, fmt.Sprintf("shard-%d-of-%d", s.Index, s.Count))
}

// Select returns the items s owns, in order.
func Select[T any](s Spec, items []T) []T {
	var out []T
	for k, x := range items {
		if s.Owns(k) {
			out = append(out, x)
		}
	}
	return out
}

// Normalise returns args without the flags -shard and -shard-dir and
// their values (forms -f v, -f=v, --f v, --f=v), up to a "--" that ends
// the flags: the command line every shard of one run has in common, and
// the one an unsharded run would have.
func Normalise(args []string) []string {
	out := []string{}
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			return append(out, args[k:]...)
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && (name == "shard" || name == "shard-dir") {
			if !hasValue {
				k++ // skip the value
			}
			continue
		}
		out = append(out, a)
	}
	return out
}
