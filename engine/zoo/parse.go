package zoo

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
)

// rawNode is a node line before the graph is ordered.
type rawNode struct {
	line  int
	layer Layer
}

// rawEdge is an edge line "\tfrom -- to".
type rawEdge struct {
	line     int
	from, to string
}

// Parse reads a PipeDream profiler graph (profiler/image_classification/
// profiles/<model>/graph.txt) and returns the profile with layers in
// topological order. name is used in error messages ("file:line") and to
// derive Profile.Model: "dir/alexnet.graph.txt" and "alexnet/graph.txt"
// both give "alexnet".
//
// A node line is
//
//	<id> -- <description> -- forward_compute_time=<ms>, backward_compute_time=<ms>, activation_size=<bytes>, parameter_size=<bytes>
//
// and an edge line is a tab followed by "<from> -- <to>". Nodes and edges
// may come in any order; blank lines are skipped. Parse rejects malformed
// lines, unknown or repeated keys, NaN, infinite, negative or (for sizes)
// fractional numbers, duplicate nodes, duplicate edges, edges naming an
// unknown node, cycles, and a graph without exactly one Input node or
// whose Input size does not give a whole batch (see InferBatch).
//
// Among nodes that are ready at the same time the topological order takes
// the smallest trailing number of the node id first ("node2" before
// "node10"), which is PipeDream's module-creation order.
func Parse(r io.Reader, name string) (*Profile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	nodes := map[string]*rawNode{}
	var order []*rawNode
	var edges []rawEdge
	edgeLine := map[[2]string]int{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if strings.HasPrefix(text, "\t") {
			from, to, ok := strings.Cut(strings.TrimSpace(text), " -- ")
			from, to = strings.TrimSpace(from), strings.TrimSpace(to)
			if !ok || from == "" || to == "" || strings.Contains(to, " -- ") {
				return nil, fmt.Errorf("zoo: %s:%d: malformed edge %q (want \"\\tnodeA -- nodeB\")", name, line, text)
			}
			k := [2]string{from, to}
			if first, dup := edgeLine[k]; dup {
				return nil, fmt.Errorf("zoo: %s:%d: duplicate edge %s -- %s (first on line %d)", name, line, from, to, first)
			}
			edgeLine[k] = line
			edges = append(edges, rawEdge{line: line, from: from, to: to})
			continue
		}
		l, err := parseNode(text)
		if err != nil {
			return nil, fmt.Errorf("zoo: %s:%d: %w", name, line, err)
		}
		if prev, dup := nodes[l.Name]; dup {
			return nil, fmt.Errorf("zoo: %s:%d: duplicate node %q (first on line %d)", name, line, l.Name, prev.line)
		}
		n := &rawNode{line: line, layer: l}
		nodes[l.Name] = n
		order = append(order, n)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("zoo: %s:%d: %w", name, line+1, err)
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("zoo: %s: no nodes", name)
	}
	for _, e := range edges {
		for _, id := range [2]string{e.from, e.to} {
			if _, ok := nodes[id]; !ok {
				return nil, fmt.Errorf("zoo: %s:%d: edge %s -- %s names unknown node %q", name, e.line, e.from, e.to, id)
			}
		}
	}
	layers, err := topoOrder(order, edges, name)
	if err != nil {
		return nil, err
	}
	p := &Profile{Model: modelName(name), Source: name, Layers: layers}
	input := -1
	for i := range layers {
		if !layers[i].IsInput() {
			continue
		}
		if input >= 0 {
			return nil, fmt.Errorf("zoo: %s:%d: second Input node %q (first is %q)", name, nodes[layers[i].Name].line, layers[i].Name, layers[input].Name)
		}
		input = i
	}
	if input < 0 {
		return nil, fmt.Errorf("zoo: %s: no Input node, cannot infer the batch size", name)
	}
	p.Batch, p.InputSide, err = InferBatch(layers[input].ActivationBytes)
	if err != nil {
		return nil, fmt.Errorf("zoo: %s:%d: %s", name, nodes[layers[input].Name].line, strings.TrimPrefix(err.Error(), "zoo: "))
	}
	return p, nil
}

// parseNode parses "<id> -- <description> -- k=v, k=v, k=v, k=v".
func parseNode(text string) (Layer, error) {
	first := strings.Index(text, " -- ")
	last := strings.LastIndex(text, " -- ")
	if first < 0 || last < first+len(" -- ") {
		return Layer{}, fmt.Errorf("malformed node line %q (want \"id -- description -- key=value, ...\")", text)
	}
	l := Layer{
		Name:        strings.TrimSpace(text[:first]),
		Description: strings.TrimSpace(text[first+4 : last]),
	}
	if l.Name == "" || strings.ContainsAny(l.Name, " \t") {
		return Layer{}, fmt.Errorf("malformed node id %q", text[:first])
	}
	var got [4]bool
	for _, kv := range strings.Split(text[last+4:], ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return Layer{}, fmt.Errorf("node %s: malformed field %q (want key=value)", l.Name, strings.TrimSpace(kv))
		}
		idx := -1
		switch k {
		case "forward_compute_time":
			idx = 0
		case "backward_compute_time":
			idx = 1
		case "activation_size":
			idx = 2
		case "parameter_size":
			idx = 3
		default:
			return Layer{}, fmt.Errorf("node %s: unknown field %q", l.Name, k)
		}
		if got[idx] {
			return Layer{}, fmt.Errorf("node %s: repeated field %s", l.Name, k)
		}
		got[idx] = true
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return Layer{}, fmt.Errorf("node %s: %s: bad number %q", l.Name, k, v)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return Layer{}, fmt.Errorf("node %s: %s: %v is not a finite non-negative number", l.Name, k, x)
		}
		switch idx {
		case 0:
			l.Forward = x / 1e3 // ms → s
		case 1:
			l.Backward = x / 1e3
		default:
			if x != math.Trunc(x) || x > 1<<62 {
				return Layer{}, fmt.Errorf("node %s: %s: %v is not a whole number of bytes", l.Name, k, x)
			}
			if idx == 2 {
				l.ActivationBytes = int64(x)
			} else {
				l.ParamBytes = int64(x)
			}
		}
	}
	for i, ok := range got {
		if !ok {
			return Layer{}, fmt.Errorf("node %s: missing field %s", l.Name, [...]string{"forward_compute_time", "backward_compute_time", "activation_size", "parameter_size"}[i])
		}
	}
	return l, nil
}

// modelName derives the model from a file name: the base name without
// ".graph.txt" or ".txt", or the directory name for "<model>/graph.txt".
func modelName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	base := path.Base(name)
	if base == "graph.txt" {
		if dir := path.Base(path.Dir(name)); dir != "." && dir != "/" {
			return dir
		}
	}
	base = strings.TrimSuffix(base, ".txt")
	return strings.TrimSuffix(base, ".graph")
}
