package predict

import (
	"fmt"
	"sort"
	"strings"

	"pslab/engine/syncps"
	"pslab/engine/trace"
)

// zhangLayers derives the per-layer input of Zhang et al.'s model (forward
// time, backward time and parameter bytes per layer, in forward order)
// from a recorded 1-worker trace, so that zhang runs on a TensorFlow
// timeline or a testbed trace as well as on a per-layer profile.
//
// Zhang's iteration (engine/syncps) pulls each layer's parameters, runs
// the forward ops in order (layer l waiting for its parameters), then the
// backward ops in reverse order, pushing layer l's gradient when its
// backward op ends. In a trace every parameter tensor is one downlink and
// one uplink (trace.Validate), so the derived layers are the tensors:
//
//   - The consumer of a downlink is the first worker op that depends on it
//     (directly, else through other ops); the producer of an uplink is the
//     last-ending worker op it depends on. Layers are in the order of
//     their consumers' starts.
//   - Forward of layer j: the worker time from its consumer's start to the
//     next layer's consumer's start (worker ops before the first consumer
//     count for the first layer). Forward ends with the last consumer's op.
//   - Backward: the worker time after that, up to each producer's end, in
//     gradient order, goes to the layer whose gradient it produces (ops
//     after the last gradient count for the last gradient's layer). Only
//     the last layer's forward/backward split is a convention, and it does
//     not change the iteration Zhang's model computes (its backward
//     follows its forward directly).
//   - Downlink and uplink of one tensor are paired by name (the op name
//     without its last path element, as pslab's traces write
//     "<tensor>/down" and "<tensor>/up"), else by order: the k-th
//     downlink in forward order with the k-th uplink from the end of
//     gradient order; their bytes must agree.
//
// Times are means over the trace's steps, in seconds. Compute that is not
// on the worker (the PS's updates) is left out, as from a per-layer
// profile. The result is checked on synthesized traces (the profile they
// were synthesized from gives the same iterations) and on testbed traces.
func zhangLayers(tr *trace.Trace) ([]syncps.Layer, error) {
	if tr == nil || len(tr.Steps) == 0 {
		return nil, fmt.Errorf("zhang: the trace has no steps")
	}
	var sum []syncps.Layer
	for s := range tr.Steps {
		layers, err := stepLayers(&tr.Steps[s])
		if err != nil {
			return nil, fmt.Errorf("zhang: step %d: %w", s, err)
		}
		if sum == nil {
			sum = layers
			continue
		}
		if len(layers) != len(sum) {
			return nil, fmt.Errorf("zhang: step %d has %d parameter tensors, step 0 has %d", s, len(layers), len(sum))
		}
		for i := range sum {
			sum[i].Forward += layers[i].Forward
			sum[i].Backward += layers[i].Backward
		}
	}
	n := float64(len(tr.Steps))
	for i := range sum {
		sum[i].Forward /= n
		sum[i].Backward /= n
	}
	return sum, nil
}

// stepLayers derives the layers of one step (zhangLayers), in seconds.
func stepLayers(st *trace.Step) ([]syncps.Layer, error) {
	ops := st.Ops
	var worker, downs, ups []int
	for i := range ops {
		switch ops[i].Resource.Kind {
		case trace.Worker:
			worker = append(worker, i)
		case trace.Downlink:
			downs = append(downs, i)
		case trace.Uplink:
			ups = append(ups, i)
		}
	}
	if len(downs) == 0 || len(worker) == 0 {
		return nil, fmt.Errorf("no parameter downlink or no worker op: nothing to derive layers from")
	}
	if len(downs) != len(ups) {
		return nil, fmt.Errorf("%d downlinks but %d uplinks: cannot pair parameters with gradients", len(downs), len(ups))
	}
	downAnc, lastWorker := reach(st, downs)
	// consumer[d]: first-starting worker op with downlink d as ancestor;
	// producer[u]: last-ending worker op among u's ancestors.
	consumer := map[int]int{}
	producer := map[int]int{}
	for _, w := range worker {
		for k, d := range downs {
			if downAnc[w][k/64]&(1<<(k%64)) != 0 {
				if c, ok := consumer[d]; !ok || ops[w].Start < ops[c].Start {
					consumer[d] = w
				}
			}
		}
	}
	for _, u := range ups {
		if p := lastWorker[u]; p >= 0 && p != u {
			producer[u] = p
		}
	}
	for _, d := range downs {
		if _, ok := consumer[d]; !ok {
			return nil, fmt.Errorf("downlink %q: no worker op uses it", ops[d].Name)
		}
	}
	for _, u := range ups {
		if _, ok := producer[u]; !ok {
			return nil, fmt.Errorf("uplink %q: it follows no worker op", ops[u].Name)
		}
	}
	sort.SliceStable(downs, func(a, b int) bool { return ops[consumer[downs[a]]].Start < ops[consumer[downs[b]]].Start })
	sort.SliceStable(ups, func(a, b int) bool { return ops[producer[ups[a]]].End < ops[producer[ups[b]]].End })
	pair, err := pairTensors(ops, downs, ups)
	if err != nil {
		return nil, err
	}
	layers := make([]syncps.Layer, len(downs))
	index := map[int]int{} // downlink → layer
	for j, d := range downs {
		layers[j] = syncps.Layer{Name: tensorName(ops[d].Name), ParamBytes: ops[d].Bytes}
		index[d] = j
	}
	// Forward: by consumer start; backward: after the last consumer ends.
	fwdEnd := ops[consumer[downs[len(downs)-1]]].End
	for _, w := range worker {
		o := &ops[w]
		sec := float64(o.Duration()) / 1e9
		if o.End <= fwdEnd {
			j := sort.Search(len(downs), func(j int) bool { return ops[consumer[downs[j]]].Start > o.Start }) - 1
			layers[max(j, 0)].Forward += sec
			continue
		}
		k := sort.Search(len(ups), func(k int) bool { return ops[producer[ups[k]]].End >= o.End })
		layers[index[pair[ups[min(k, len(ups)-1)]]]].Backward += sec
	}
	return layers, nil
}

// pairTensors maps each uplink to its tensor's downlink: by tensorName
// when those names pair every tensor one to one, else by order (downs in
// forward order against ups in reverse gradient order). Bytes must agree.
func pairTensors(ops []trace.Op, downs, ups []int) (map[int]int, error) {
	byName := map[string]int{}
	for _, d := range downs {
		byName[tensorName(ops[d].Name)] = d
	}
	pair := map[int]int{}
	used := map[int]bool{}
	for _, u := range ups {
		d, ok := byName[tensorName(ops[u].Name)]
		if !ok || used[d] || len(byName) != len(downs) {
			pair = nil
			break
		}
		pair[u], used[d] = d, true
	}
	if pair == nil {
		pair = map[int]int{}
		for k, d := range downs {
			pair[ups[len(ups)-1-k]] = d
		}
	}
	for u, d := range pair {
		if ops[u].Bytes != ops[d].Bytes {
			return nil, fmt.Errorf("uplink %q (%d bytes) pairs with downlink %q (%d bytes): the sizes differ",
				ops[u].Name, ops[u].Bytes, ops[d].Name, ops[d].Bytes)
		}
	}
	return pair, nil
}

// tensorName is an op name without its last path element ("conv1/down"
// → "conv1"), or the whole name if it has none.
func tensorName(op string) string {
	if i := strings.LastIndexByte(op, '/'); i > 0 {
		return op[:i]
	}
	return op
}

// reach walks the step's dependency graph in topological order (it is
// acyclic, trace.Validate) and returns, per op, the set of downs (by
// index into downs, as a bitset) among its ancestors, and the last-ending
// worker op among its ancestors and itself (-1 if none). O(ops·downs/64).
func reach(st *trace.Step, downs []int) (downAnc [][]uint64, lastWorker []int) {
	ops := st.Ops
	n, words := len(ops), (len(downs)+63)/64
	slot := map[int]int{}
	for k, d := range downs {
		slot[d] = k
	}
	indeg := make([]int, n)
	users := make([][]int, n)
	for i := range ops {
		for _, d := range ops[i].Deps {
			indeg[i]++
			users[d] = append(users[d], i)
		}
	}
	queue := make([]int, 0, n)
	for i := range ops {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	downAnc, lastWorker = make([][]uint64, n), make([]int, n)
	for q := 0; q < len(queue); q++ {
		i := queue[q]
		set, last := make([]uint64, words), -1
		if ops[i].Resource.Kind == trace.Worker {
			last = i
		}
		for _, d := range ops[i].Deps {
			for w, bits := range downAnc[d] {
				set[w] |= bits
			}
			if k, ok := slot[int(d)]; ok {
				set[k/64] |= 1 << (k % 64)
			}
			if l := lastWorker[d]; l >= 0 && (last < 0 || ops[l].End > ops[last].End) {
				last = l
			}
		}
		downAnc[i], lastWorker[i] = set, last
		for _, u := range users[i] {
			if indeg[u]--; indeg[u] == 0 {
				queue = append(queue, u)
			}
		}
	}
	return downAnc, lastWorker
}
