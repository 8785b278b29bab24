package testbed

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Downlink orders of the ordered transport.
const (
	OrderDefault = "default" // request order: the model's layers in topological order
	OrderTIC     = "tic"     // earliest use in the forward pass first (see TICOrder)
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
		return TICOrder(p), nil
	case OrderReverse:
		o := TICOrder(p)
		slices.Reverse(o)
		return o, nil
	case OrderRandom:
		r := rand.New(rand.NewPCG(seed, randomStream))
		r.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
	}
	return idx, nil
}

// TICOrder is pslab's definition of the TIC order (TicTac, Hashemi et al.,
// SysML 2019, as used by icpe20 Fig. 18–19): earliest use in the forward
// pass first. A tensor is used by the forward op of its layer; that op's
// earliest use is its forward depth, the number of ops on the longest
// path to it from the input when every transfer is instant and every op
// takes one unit of time (timing-independent, like TicTac's TIC). Ties go
// to the earlier layer in topological order. For a chain (AlexNet, VGG)
// this is the topological order, i.e. the default order; for branching
// models (ResNet, Inception) the first op of every branch comes before
// the deeper ops of earlier branches.
//
// engine/sim orders by TicTac's transfer-count priority P(c); both agree on
// chains. Keep this the only definition in this package so the two can be
// unified.
func TICOrder(p *Plan) []int {
	layers := p.Profile.Layers
	depth := make([]int, len(layers))
	for i := range layers {
		for _, in := range layers[i].Inputs {
			if !layers[in].IsInput() {
				depth[i] = max(depth[i], depth[in]+1)
			}
		}
	}
	o := make([]int, len(p.Tensors))
	for k := range o {
		o[k] = k
	}
	slices.SortStableFunc(o, func(a, b int) int { return depth[p.Tensors[a].Layer] - depth[p.Tensors[b].Layer] })
	return o
}
