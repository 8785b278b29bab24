package zoo

import (
	"fmt"
	"slices"
	"strings"
)

// ResNet-152 is ResNet-101 with more identity bottleneck blocks: He et
// al. (CVPR 2016, Table 1) give stages of [3, 4, 23, 3] blocks for
// ResNet-101 and [3, 8, 36, 3] for ResNet-152, the same block shapes, so
// stage 2 (width 128) gains 4 blocks and stage 3 (width 256) gains 13.
// resnetStages names each stage by the first convolution of its identity
// blocks (Conv2d(4w, w, 1×1), as PipeDream prints torchvision's modules),
// with the identity blocks ResNet-101 has (the stage's first block
// downsamples and is not one) and the copies ResNet-152 adds.
var resnetStages = []struct {
	firstConv        string
	resnet101, added int
}{
	{"Conv2d(512, 128, kernel_size=(1, 1)", 3, 4},
	{"Conv2d(1024, 256, kernel_size=(1, 1)", 22, 13},
}

// DeriveResNet152 returns a ResNet-152 profile derived from a measured
// ResNet-101 profile p (PipeDream's resnet101): every layer of p, plus 4
// copies of the last identity bottleneck block of stage 2 and 13 of stage
// 3, each inserted after that block and chained to it (torchvision's
// ResNet-152 has the same layers otherwise). A copy's layers have the
// same shapes (Conv2d, BatchNorm2d, ReLU, Add descriptions and activation
// sizes), so the same FLOPs: their times, compute scaled by FLOPs, are the
// measured block's (a factor of 1), and their parameters are the block's.
// The result has torchvision's 60,192,808 fp32 parameters (240.8 MB), the
// profile's batch, and Model "resnet152". Copies are named "<layer>.copy<k>".
// It fails if p does not have ResNet-101's identity blocks (3 in stage 2,
// 22 in stage 3).
func DeriveResNet152(p *Profile) (*Profile, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	blocks := identityBlocks(p)
	q := p
	// Stage 3's block comes later in topological order; insert its copies
	// first so that stage 2's output index stays valid.
	for k := len(resnetStages) - 1; k >= 0; k-- {
		st := resnetStages[k]
		var outs []int
		for _, b := range blocks {
			if strings.HasPrefix(p.Layers[b.first].Description, st.firstConv) {
				outs = append(outs, b.out)
			}
		}
		if len(outs) != st.resnet101 {
			return nil, fmt.Errorf("zoo: DeriveResNet152: profile %q has %d identity blocks starting with %s, ResNet-101 has %d",
				p.Model, len(outs), st.firstConv, st.resnet101)
		}
		var err error
		if q, err = RepeatBlock(q, slices.Max(outs), st.added); err != nil {
			return nil, fmt.Errorf("zoo: DeriveResNet152: %w", err)
		}
	}
	q.Model = "resnet152"
	q.Source = "derived from " + p.Source
	return q, q.Validate()
}

// block is one identity residual block of a profile.
type block struct {
	in, first, out int // shortcut input, first layer of the branch, block output
}

// identityBlocks finds the identity residual blocks of p: an Add layer
// with two inputs, consumed by exactly one layer, a ReLU (the block
// output), one of whose inputs (the shortcut, the block input) is also
// read by a Conv2d with no other input (the branch's first layer). A
// downsampling block's Add reads a projection instead, so it is not one.
func identityBlocks(p *Profile) []block {
	cons := consumers(p)
	var out []block
	for i := range p.Layers {
		l := &p.Layers[i]
		if !strings.HasPrefix(l.Description, "Add") || len(l.Inputs) != 2 || len(cons[i]) != 1 {
			continue
		}
		o := cons[i][0]
		if !strings.HasPrefix(p.Layers[o].Description, "ReLU") {
			continue
		}
		for _, s := range l.Inputs {
			for _, f := range cons[s] {
				if f != i && p.Layers[f].Inputs[0] == s && len(p.Layers[f].Inputs) == 1 &&
					strings.HasPrefix(p.Layers[f].Description, "Conv2d") {
					out = append(out, block{in: s, first: f, out: o})
				}
			}
		}
	}
	return out
}

// consumers lists, per layer, the layers that read its output, ascending.
func consumers(p *Profile) [][]int {
	c := make([][]int, len(p.Layers))
	for i, l := range p.Layers {
		for _, in := range l.Inputs {
			c[in] = append(c[in], i)
		}
	}
	return c
}

// RepeatBlock returns a copy of p with n more copies of the block whose
// output is layer out: the layers that descend from the block's input
// (the layer out's Add reads as its shortcut; the block is every layer
// strictly after it on a path to out) chained one after another right
// after out, and every later reader of out reading the last copy instead.
// Copy k's layers are named "<layer>.copy<k>" and keep their times, sizes
// and descriptions. out must be the ReLU output of an identity block.
func RepeatBlock(p *Profile, out, n int) (*Profile, error) {
	if n < 0 || out < 0 || out >= len(p.Layers) {
		return nil, fmt.Errorf("zoo: RepeatBlock: %d copies of the block ending at layer %d of %d", n, out, len(p.Layers))
	}
	var b *block
	for _, x := range identityBlocks(p) {
		if x.out == out {
			b = &x
			break
		}
	}
	if b == nil {
		return nil, fmt.Errorf("zoo: RepeatBlock: layer %d %q of %q is not the output of an identity residual block", out, p.Layers[out].Name, p.Model)
	}
	members := blockLayers(p, b.in, out)
	q := *p
	q.Layers = make([]Layer, 0, len(p.Layers)+n*len(members))
	newIdx := make([]int, len(p.Layers))
	last := -1 // new index of the last copy's output
	for i := range p.Layers {
		l := p.Layers[i]
		l.Inputs = make([]int, len(p.Layers[i].Inputs))
		for k, in := range p.Layers[i].Inputs {
			l.Inputs[k] = newIdx[in]
			if in == out && last >= 0 {
				l.Inputs[k] = last
			}
		}
		slices.Sort(l.Inputs)
		newIdx[i] = len(q.Layers)
		q.Layers = append(q.Layers, l)
		if i != out {
			continue
		}
		prev := newIdx[out]
		for c := 1; c <= n; c++ {
			local := map[int]int{b.in: prev}
			for _, j := range members {
				cl := p.Layers[j]
				cl.Name = fmt.Sprintf("%s.copy%d", cl.Name, c)
				cl.Inputs = make([]int, len(p.Layers[j].Inputs))
				for k, in := range p.Layers[j].Inputs {
					cl.Inputs[k] = local[in]
				}
				slices.Sort(cl.Inputs)
				local[j] = len(q.Layers)
				q.Layers = append(q.Layers, cl)
			}
			prev = local[out]
		}
		last = prev
	}
	return &q, q.Validate()
}

// blockLayers returns, ascending, the layers strictly after in and up to
// out on a path from in to out: descendants of in that are ancestors of
// out (out included).
func blockLayers(p *Profile, in, out int) []int {
	desc := make([]bool, len(p.Layers))
	desc[in] = true
	for i := in + 1; i <= out; i++ {
		for _, x := range p.Layers[i].Inputs {
			if desc[x] {
				desc[i] = true
				break
			}
		}
	}
	anc := make([]bool, len(p.Layers))
	anc[out] = true
	var members []int
	for i := out; i > in; i-- {
		if !anc[i] {
			continue
		}
		for _, x := range p.Layers[i].Inputs {
			anc[x] = true
		}
		if desc[i] {
			members = append(members, i)
		}
	}
	slices.Reverse(members)
	return members
}
