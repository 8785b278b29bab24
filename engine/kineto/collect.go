package kineto

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"pslab/engine/timeline"
)

// backwardPrefix starts the name of the autograd engine's event around
// one backward node.
const backwardPrefix = "autograd::engine::evaluate_function: "

// cpuOp is a cpu_op event in compact form.
type cpuOp struct {
	thread   string // pid/tid
	name     string // interned
	ts, end  int64  // ns
	seq      int64  // "Sequence number", -1 if absent
	backward bool   // an autograd evaluate_function event
	dims     string // raw "Input Dims" of parametric ops, else ""
	types    string // raw "Input type" of parametric ops
	lead     int64  // first dimension of the first input of ops with a sequence number, 0 if none
}

// launch is a cuda_runtime (or cuda_driver) event with a correlation id.
type launch struct {
	thread string
	ts     int64
	corr   int64
}

// gpuWork is a kernel, memcpy or memset on the GPU.
type gpuWork struct {
	corr int64
	ts   int64 // ns
	dur  int64 // ns
	nccl bool
	name string // kernel family for NCCL kernels
}

// span is a named time interval: a ProfilerStep or a collective call.
type span struct {
	name    string
	ts, end int64
	elems   int64  // elements of the collective's first input
	types   string // raw "Input type"
}

// collected is what the importer keeps of a Kineto file: compact records of
// the relevant events, never the JSON.
type collected struct {
	ops      []cpuOp
	launches []launch
	gpu      []gpuWork
	steps    []span
	comms    []span // CPU-side nccl:* annotations
	events   int
	dist     distributedInfo
	names    map[string]string
}

type distributedInfo struct {
	Backend   string `json:"backend"`
	Rank      int    `json:"rank"`
	WorldSize int    `json:"world_size"`
}

// parametric lists the aten ops whose parameter shapes are read (see
// paramBytes).
var parametric = map[string]bool{
	"aten::linear": true, "aten::addmm": true, "aten::conv1d": true, "aten::conv2d": true,
	"aten::conv3d": true, "aten::convolution": true, "aten::layer_norm": true,
	"aten::batch_norm": true, "aten::group_norm": true, "aten::embedding": true, "aten::embedding_bag": true,
}

// open returns a reader of r, gunzipped if it starts with the gzip magic.
func open(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, err := br.Peek(2)
	if err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, nil
	}
	return br, nil
}

// collect streams the trace and keeps the records the analysis needs.
func collect(r io.Reader, name string) (*collected, error) {
	in, err := open(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	er := timeline.NewEventReader(in, name)
	c := &collected{names: map[string]string{}}
	for {
		e, err := er.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := c.add(e); err != nil {
			return nil, fmt.Errorf("%s: event %d at byte %d: %w", name, e.Index, e.Offset, err)
		}
	}
	c.events = er.Events()
	if raw := er.Top("distributedInfo"); raw != nil {
		if err := json.Unmarshal(raw, &c.dist); err != nil {
			return nil, fmt.Errorf("%s: distributedInfo: %v", name, err)
		}
	}
	return c, nil
}

func (c *collected) intern(s string) string {
	if v, ok := c.names[s]; ok {
		return v
	}
	c.names[s] = s
	return s
}

// add keeps one event if it matters.
func (c *collected) add(e *timeline.Event) error {
	if e.Ph != "X" {
		return nil
	}
	if !e.HasTs || !e.HasDur || e.Dur < 0 {
		return fmt.Errorf("%q: complete event without ts or with a negative dur", e.Name)
	}
	thread := e.Pid + "/" + e.Tid
	switch e.Cat {
	case "cpu_op":
		op := cpuOp{thread: c.intern(thread), name: c.intern(e.Name), ts: e.Ts, end: e.Ts + e.Dur, seq: -1,
			backward: strings.HasPrefix(e.Name, backwardPrefix)}
		if raw, ok := e.Arg("Sequence number"); ok {
			seq, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil || seq < 0 {
				return fmt.Errorf("%q: Sequence number %s is not an integer ≥ 0", e.Name, raw)
			}
			op.seq = seq
			if dims, ok := e.Arg("Input Dims"); ok {
				op.lead = leadDim(dims)
			}
		}
		if parametric[e.Name] {
			dims, ok := e.Arg("Input Dims")
			if ok {
				if err := checkDims(dims); err != nil {
					return fmt.Errorf("%q: %w", e.Name, err)
				}
			}
			types, _ := e.Arg("Input type")
			op.dims, op.types = string(dims), string(types)
		}
		c.ops = append(c.ops, op)
	case "cuda_runtime", "cuda_driver":
		if raw, ok := e.Arg("correlation"); ok {
			corr, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil {
				return fmt.Errorf("%q: correlation %s is not an integer", e.Name, raw)
			}
			c.launches = append(c.launches, launch{thread: c.intern(thread), ts: e.Ts, corr: corr})
		}
	case "kernel", "gpu_memcpy", "gpu_memset":
		w := gpuWork{corr: -1, ts: e.Ts, dur: e.Dur}
		if raw, ok := e.Arg("correlation"); ok {
			corr, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil {
				return fmt.Errorf("%q: correlation %s is not an integer", e.Name, raw)
			}
			w.corr = corr
		}
		if e.Cat == "kernel" && strings.Contains(strings.ToLower(e.Name), "nccl") {
			fam, _, _ := strings.Cut(e.Name, "(")
			w.nccl, w.name = true, c.intern(strings.TrimPrefix(strings.TrimSpace(fam), "void "))
		}
		c.gpu = append(c.gpu, w)
	case "user_annotation", "gpu_user_annotation":
		switch {
		case e.Cat == "user_annotation" && strings.HasPrefix(e.Name, "ProfilerStep#"):
			c.steps = append(c.steps, span{name: e.Name, ts: e.Ts, end: e.Ts + e.Dur})
		case e.Cat == "user_annotation" && strings.HasPrefix(e.Name, "nccl:"):
			s := span{name: c.intern(e.Name), ts: e.Ts, end: e.Ts + e.Dur}
			if dims, ok := e.Arg("Input Dims"); ok {
				if err := checkDims(dims); err != nil {
					return fmt.Errorf("%q: %w", e.Name, err)
				}
				s.elems = firstNumel(dims)
			}
			if types, ok := e.Arg("Input type"); ok {
				s.types = string(types)
			}
			c.comms = append(c.comms, s)
		}
	}
	return nil
}
