package kineto

import (
	"encoding/json"
	"sort"
	"strings"
)

// stepResult is the layer list of one step.
type stepResult struct {
	layers          []layer
	matched         int     // backward roots linked to a forward layer
	unattributedBwd float64 // s, backward roots without a sequence number
}

// stepLayers derives the layers of every step: one layer per forward root
// (in sequence-number order), whose backward time is that of the backward
// roots with a sequence number of its subtree; a backward root whose
// forward op is not in the step becomes a backward-only layer at the
// position of its sequence number.
func stepLayers(c *collected, a attribution, steps []span, clock string) []stepResult {
	stepOf := func(ts int64) int {
		i := sort.Search(len(steps), func(i int) bool { return steps[i].end > ts })
		if i < len(steps) && steps[i].ts <= ts {
			return i
		}
		return -1
	}
	seconds := func(i int) float64 {
		if clock == "gpu" {
			return float64(a.gpu[i]) / 1e9
		}
		return float64(c.ops[i].end-c.ops[i].ts) / 1e9
	}
	isRootAt := func(i int) bool { return a.owner[i] == int32(i) }
	// Ops that create no autograd node do not advance the sequence
	// number, so several forward roots can carry the same s; the node with
	// number s was created by the last of them (later ops see s+1).
	seqOwner := map[int64]int32{}
	for i := range c.ops {
		op := &c.ops[i]
		o := a.owner[i]
		if o < 0 || op.seq < 0 || op.backward || c.ops[o].backward {
			continue
		}
		if prev, ok := seqOwner[op.seq]; !ok || c.ops[o].ts > c.ops[prev].ts {
			seqOwner[op.seq] = o
		}
	}
	out := make([]stepResult, len(steps))
	pos := map[int32]int{} // forward root → index in its step's layers
	for i := range c.ops {
		op := &c.ops[i]
		if !isRootAt(i) || op.backward {
			continue
		}
		s := stepOf(op.ts)
		if s < 0 {
			continue
		}
		desc := op.name
		if op.dims != "" {
			desc += " " + op.dims
		}
		pos[int32(i)] = len(out[s].layers)
		out[s].layers = append(out[s].layers, layer{key: op.seq, ts: op.ts, name: op.name, desc: desc,
			fwd: seconds(i), params: a.params[i], lead: op.lead})
	}
	for i := range c.ops {
		op := &c.ops[i]
		if !isRootAt(i) || !op.backward {
			continue
		}
		s := stepOf(op.ts)
		if s < 0 {
			continue
		}
		r := &out[s]
		node := strings.TrimPrefix(op.name, backwardPrefix)
		if op.seq < 0 {
			r.unattributedBwd += seconds(i)
			continue
		}
		if f, ok := seqOwner[op.seq]; ok && stepOf(c.ops[f].ts) == s {
			r.layers[pos[f]].bwd += seconds(i)
			r.matched++
			continue
		}
		r.layers = append(r.layers, layer{key: op.seq, ts: op.ts, backwardOnly: true, name: "bwd:" + node,
			desc: "backward only (forward op not in the trace): " + node, bwd: seconds(i)})
	}
	for s := range out {
		ls := out[s].layers
		sort.SliceStable(ls, func(i, j int) bool {
			// Sequence order; among equal numbers forward ops in time order,
			// then backward-only layers.
			if ls[i].key != ls[j].key {
				return ls[i].key < ls[j].key
			}
			if ls[i].backwardOnly != ls[j].backwardOnly {
				return !ls[i].backwardOnly
			}
			return !ls[i].backwardOnly && ls[i].ts < ls[j].ts
		})
	}
	return out
}

// firstType is the first entry of raw "Input type".
func firstType(raw string) string {
	var tys []string
	if json.Unmarshal([]byte(raw), &tys) != nil || len(tys) == 0 {
		return ""
	}
	return tys[0]
}
