package trace

// Op is one recorded operation of a profiled step.
type Op struct {
	// Name identifies the operation, e.g. "conv1/weights" or "fc0/backward".
	Name string
	// Resource is where the operation runs.
	Resource Resource
	// Start and End are the recorded start and end, in nanoseconds from the
	// start of the step. For communication operations TensorFlow records the
	// request time as start and the time the tensor is available (after
	// parsing) as end.
	Start, End int64
	// Bytes is the tensor size for communication operations; zero for
	// computation.
	Bytes int64
	// Deps are the indices (into Step.Ops) of the operations this one waits
	// for.
	Deps []int32
}

// Duration returns End − Start in nanoseconds.
func (o *Op) Duration() int64 { return o.End - o.Start }

// IsComm reports whether the operation is a network transfer.
func (o *Op) IsComm() bool { return o.Resource.Kind.IsLink() }

// Step is one profiled SGD step of one worker.
type Step struct {
	Ops []Op
}

// Meta describes how a trace was recorded. Zero values mean unknown.
type Meta struct {
	Source   string // where the trace came from (file, generator, testbed run)
	Platform string // hardware and software of the profiled run
	Model    string // DNN name
	Batch    int    // examples per step per worker
	// Bandwidth is the link bandwidth during profiling, in bytes/s.
	Bandwidth float64
	// Window is the HTTP/2 flow-control window WIN, in bytes.
	Window int64
	// Alpha (s/byte) and Beta (s) are the parsing-overhead coefficients:
	// overhead = Alpha·bytes + Beta (icpe20 §3.2.1).
	Alpha, Beta float64
	// Servers is the number of parameter servers (≥ 1).
	Servers int
}

// Trace is a set of profiled steps with identical operation structure.
type Trace struct {
	Meta  Meta
	Steps []Step
}
