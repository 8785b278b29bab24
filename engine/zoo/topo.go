package zoo

import (
	"container/heap"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// nodeKey orders ready nodes: trailing number of the id first ("node2"
// before "node10"), ids without one after those with one, then the id.
type nodeKey struct {
	num   int64
	noNum bool
	id    string
}

func keyOf(id string) nodeKey {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	n, err := strconv.ParseInt(id[i:], 10, 64)
	if i == len(id) || err != nil {
		return nodeKey{noNum: true, id: id}
	}
	return nodeKey{num: n, id: id}
}

func (a nodeKey) less(b nodeKey) bool {
	if a.noNum != b.noNum {
		return !a.noNum
	}
	if a.num != b.num {
		return a.num < b.num
	}
	return a.id < b.id
}

// readyHeap is a min-heap of node positions ordered by nodeKey.
type readyHeap struct {
	pos  []int
	keys []nodeKey
}

func (h *readyHeap) Len() int           { return len(h.pos) }
func (h *readyHeap) Less(i, j int) bool { return h.keys[h.pos[i]].less(h.keys[h.pos[j]]) }
func (h *readyHeap) Swap(i, j int)      { h.pos[i], h.pos[j] = h.pos[j], h.pos[i] }
func (h *readyHeap) Push(x any)         { h.pos = append(h.pos, x.(int)) }
func (h *readyHeap) Pop() any {
	x := h.pos[len(h.pos)-1]
	h.pos = h.pos[:len(h.pos)-1]
	return x
}

// topoOrder sorts the nodes (Kahn's algorithm with nodeKey tie-break) and
// fills each layer's Inputs with indices into the result. Edges must name
// known nodes. A cycle is reported with the line of one of its edges.
func topoOrder(nodes []*rawNode, edges []rawEdge, name string) ([]Layer, error) {
	n := len(nodes)
	pos := make(map[string]int, n)
	keys := make([]nodeKey, n)
	for i, nd := range nodes {
		pos[nd.layer.Name] = i
		keys[i] = keyOf(nd.layer.Name)
	}
	preds := make([][]int, n)
	succs := make([][]int, n)
	indeg := make([]int, n)
	lineOf := make(map[[2]int]int, len(edges))
	for _, e := range edges {
		a, b := pos[e.from], pos[e.to]
		preds[b] = append(preds[b], a)
		succs[a] = append(succs[a], b)
		indeg[b]++
		lineOf[[2]int{a, b}] = e.line
	}
	h := &readyHeap{keys: keys}
	for i := range nodes {
		if indeg[i] == 0 {
			h.pos = append(h.pos, i)
		}
	}
	heap.Init(h)
	index := make([]int, n) // position → topological index
	sorted := make([]int, 0, n)
	for h.Len() > 0 {
		i := heap.Pop(h).(int)
		index[i] = len(sorted)
		sorted = append(sorted, i)
		for _, j := range succs[i] {
			indeg[j]--
			if indeg[j] == 0 {
				heap.Push(h, j)
			}
		}
	}
	if len(sorted) < n {
		return nil, cycleError(nodes, preds, indeg, lineOf, name)
	}
	layers := make([]Layer, n)
	for t, i := range sorted {
		l := nodes[i].layer
		l.Inputs = make([]int, len(preds[i]))
		for k, p := range preds[i] {
			l.Inputs[k] = index[p]
		}
		sort.Ints(l.Inputs)
		layers[t] = l
	}
	return layers, nil
}

// cycleError walks back from an unsorted node through unsorted predecessors
// (every unsorted node has one) until a node repeats, and reports that
// cycle with the line of its last edge in the file.
func cycleError(nodes []*rawNode, preds [][]int, indeg []int, lineOf map[[2]int]int, name string) error {
	start := -1
	for i, d := range indeg {
		if d > 0 {
			start = i
			break
		}
	}
	seenAt := map[int]int{}
	var path []int
	cur := start
	for {
		if at, ok := seenAt[cur]; ok {
			path = path[at:]
			break
		}
		seenAt[cur] = len(path)
		path = append(path, cur)
		for _, p := range preds[cur] {
			if indeg[p] > 0 {
				cur = p
				break
			}
		}
	}
	// path follows edges backwards; reverse it to read along the edges.
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	// Report the edge read last (the one that closed the cycle) and print
	// the cycle ending with it.
	line, last := 0, 0
	for k, a := range path {
		b := path[(k+1)%len(path)]
		if l := lineOf[[2]int{a, b}]; l > line {
			line, last = l, k
		}
	}
	ids := make([]string, 0, len(path)+1)
	for k := range len(path) + 1 {
		ids = append(ids, nodes[path[(last+1+k)%len(path)]].layer.Name)
	}
	return fmt.Errorf("zoo: %s:%d: cycle %s", name, line, strings.Join(ids, " -- "))
}
