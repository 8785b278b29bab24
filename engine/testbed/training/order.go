package training

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// Downlink orders of the ordered transport.
const (
	OrderDefault = "default" // request order: the model's layers in topological order
	OrderTIC     = "tic"     // TicTac priority of engine/sim (see TICOrder)
	OrderReverse = "reverse" // TICOrder reversed
	OrderRandom  = "random"  // one seeded random permutation, the same every step
)

// randomStream is the second PCG word of the random order; the first is
// the job seed.
const randomStream = 0x7e57bed

// ParseOrder checks an order name.
func ParseOrder(s string) (string, error) {
	switch s {
	case OrderDefault, OrderTIC, OrderReverse, OrderRandom:
		return s, nil
	}
	return "", fmt.Errorf("unknown order %q (want default, tic, reverse or random)", s)
}

// DownlinkOrder returns the tensor indices of p in the order the ordered
// transport sends them: order is one of the Order* names, seed seeds the
// random order. Every PS sends its own tensors in this order.
func DownlinkOrder(p *Plan, order string, seed uint64) ([]int, error) {
	if _, err := ParseOrder(order); err != nil {
		return nil, err
	}
	idx := make([]int, len(p.Tensors))
	for k := range idx {
		idx[k] = k
	}
	switch order {
	case OrderTIC:
		return TICOrder(p)
	case OrderReverse:
		o, err := TICOrder(p)
		slices.Reverse(o)
		return o, err
	case OrderRandom:
		r := rand.New(rand.NewPCG(seed, randomStream))
		r.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
	}
	return idx, nil
}

// TICOrder returns p's tensor indices in the TIC order (TicTac, Hashemi et
// al., SysML 2019, as used by icpe20 Figs. 18–19), with the definition of
// engine/sim (sim.TICPriority): a transfer needed by a computation that
// waits for fewer transfers goes first; ties keep the topological order.
// The priorities are computed on the 1-worker trace zoo.Synthesize builds
// from the same profile, whose downlinks are p's tensors in the same order.
// For a chain (AlexNet, VGG) this is the topological order, i.e. the
// default order; for branching models (ResNet, Inception) the first op of
// every branch comes before the deeper ops of earlier branches.
func TICOrder(p *Plan) ([]int, error) {
	tr, err := zoo.Synthesize(p.Profile, zoo.Options{Steps: 1, Bandwidth: 1e9})
	if err != nil {
		return nil, fmt.Errorf("testbed: TIC order: %w", err)
	}
	ops := tr.Steps[0].Ops
	prio := sim.TICPriority(&tr.Steps[0])
	var down []int32 // priorities of the downlinks, in op order
	for i := range ops {
		if ops[i].Resource.Kind == trace.Downlink {
			down = append(down, prio[i])
		}
	}
	if len(down) != len(p.Tensors) {
		return nil, fmt.Errorf("testbed: TIC order: %d downlinks in the synthesized step, %d tensors in the plan", len(down), len(p.Tensors))
	}
	o := make([]int, len(p.Tensors))
	for k := range o {
		o[k] = k
	}
	slices.SortStableFunc(o, func(a, b int) int { return int(down[a]) - int(down[b]) })
	return o, nil
}
