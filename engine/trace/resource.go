package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the kind of resource an operation occupies.
type Kind uint8

// The four resources of a parameter-server step (icpe20 §3, Fig. 6).
const (
	Downlink Kind = iota // PS → worker link: parameters
	Worker               // the worker's processor: forward and backward computation
	Uplink               // worker → PS link: gradients
	PS                   // the parameter server's processor: updates
)

var kindNames = [...]string{"downlink", "worker", "uplink", "ps"}

// String returns the lower-case name used in datasets: downlink, worker,
// uplink or ps.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsLink reports whether k is a network direction (downlink or uplink).
func (k Kind) IsLink() bool { return k == Downlink || k == Uplink }

// ParseKind parses a kind name as written by Kind.String.
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if s == n {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("trace: unknown resource %q (want downlink, worker, uplink or ps)", s)
}

// Resource is a resource of one worker's step: a kind and, for links and PS
// processors, the index of the parameter server (0-based). Worker resources
// have PS 0.
type Resource struct {
	Kind Kind
	PS   int
}

// String formats r as "kind" for PS index 0 and "kind:i" otherwise.
func (r Resource) String() string {
	if r.PS == 0 {
		return r.Kind.String()
	}
	return r.Kind.String() + ":" + strconv.Itoa(r.PS)
}

// ParseResource parses the form written by Resource.String.
func ParseResource(s string) (Resource, error) {
	name, idx, found := strings.Cut(s, ":")
	k, err := ParseKind(name)
	if err != nil {
		return Resource{}, err
	}
	r := Resource{Kind: k}
	if found {
		i, err := strconv.Atoi(idx)
		if err != nil || i < 0 {
			return Resource{}, fmt.Errorf("trace: bad PS index in resource %q", s)
		}
		r.PS = i
	}
	return r, nil
}
