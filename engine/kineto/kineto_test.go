package kineto

import (
	"bytes"
	"compress/gzip"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/zoo"
)

// step is one hand-built training step starting at t0 µs on two CPU
// threads (forward 10, backward 20) and GPU stream 7:
//
//	aten::linear seq 5 [0, 50] ⊃ aten::addmm seq 5 [5, 40] ⊃ launch corr c+1 → kernel 30 µs
//	aten::relu   seq 6 [60, 70], launch corr c+2 → kernel 4 µs
//	aten::item (no seq) [80, 90], launch corr c+3 → kernel 2 µs (unattributed)
//	backward ReluBackward0 seq 6 [100, 110], launch c+4 → kernel 6 µs
//	backward AddmmBackward0 seq 5 [120, 150], launch c+5 → kernel 50 µs, launch c+6 → NCCL kernel 400 µs
//	backward MulBackward0 seq 4 (forward not in trace) [160, 170], launch c+7 → kernel 8 µs
//	backward AccumulateGrad (no seq) [180, 190], launch c+8 → kernel 1 µs
func step(n int, t0, c int) []string {
	at := func(us int) string { return itoa(t0 + us) }
	corr := func(k int) string { return itoa(c + k) }
	seq := func(s int) string { return itoa(1000*n + s) }
	return []string{
		`{"ph":"X","cat":"user_annotation","name":"ProfilerStep#` + itoa(n) + `","pid":1,"tid":10,"ts":` + at(0) + `,"dur":200}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":10,"ts":` + at(0) + `,"dur":50,"args":{"Input Dims":[[32, 100], [10, 100], [10]],"Input type":["float","float","float"],"Sequence number":` + seq(5) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":10,"ts":` + at(5) + `,"dur":35,"args":{"Input Dims":[[10], [32, 100], [100, 10]],"Input type":["float","float","float"],"Sequence number":` + seq(5) + `}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":10,"ts":` + at(10) + `,"dur":3,"args":{"correlation":` + corr(1) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":10,"ts":` + at(60) + `,"dur":10,"args":{"Input Dims":[[64, 10]],"Sequence number":` + seq(6) + `}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":10,"ts":` + at(61) + `,"dur":3,"args":{"correlation":` + corr(2) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"aten::item","pid":1,"tid":10,"ts":` + at(80) + `,"dur":10}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":10,"ts":` + at(81) + `,"dur":3,"args":{"correlation":` + corr(3) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ReluBackward0","pid":1,"tid":20,"ts":` + at(100) + `,"dur":10,"args":{"Sequence number":` + seq(6) + `}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":20,"ts":` + at(101) + `,"dur":3,"args":{"correlation":` + corr(4) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: AddmmBackward0","pid":1,"tid":20,"ts":` + at(120) + `,"dur":30,"args":{"Sequence number":` + seq(5) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":1,"tid":20,"ts":` + at(121) + `,"dur":28,"args":{"Sequence number":` + seq(5) + `}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":20,"ts":` + at(122) + `,"dur":3,"args":{"correlation":` + corr(5) + `}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":20,"ts":` + at(130) + `,"dur":3,"args":{"correlation":` + corr(6) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":1,"tid":20,"ts":` + at(160) + `,"dur":10,"args":{"Sequence number":` + seq(4) + `}}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":20,"ts":` + at(161) + `,"dur":3,"args":{"correlation":` + corr(7) + `}}`,
		`{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: torch::autograd::AccumulateGrad","pid":1,"tid":20,"ts":` + at(180) + `,"dur":10}`,
		`{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":20,"ts":` + at(181) + `,"dur":3,"args":{"correlation":` + corr(8) + `}}`,
		`{"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","pid":1,"tid":20,"ts":` + at(130) + `,"dur":2,"args":{"Input Dims":[[1010]],"Input type":["float"]}}`,
		`{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":` + at(15) + `,"dur":30,"args":{"correlation":` + corr(1) + `}}`,
		`{"ph":"X","cat":"kernel","name":"relu","pid":0,"tid":7,"ts":` + at(65) + `,"dur":4,"args":{"correlation":` + corr(2) + `}}`,
		`{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH","pid":0,"tid":7,"ts":` + at(85) + `,"dur":2,"args":{"correlation":` + corr(3) + `}}`,
		`{"ph":"X","cat":"kernel","name":"relu_bwd","pid":0,"tid":7,"ts":` + at(105) + `,"dur":6,"args":{"correlation":` + corr(4) + `}}`,
		`{"ph":"X","cat":"kernel","name":"gemm_bwd","pid":0,"tid":7,"ts":` + at(125) + `,"dur":50,"args":{"correlation":` + corr(5) + `}}`,
		`{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)","pid":0,"tid":8,"ts":` + at(135) + `,"dur":400,"args":{"correlation":` + corr(6) + `}}`,
		`{"ph":"X","cat":"kernel","name":"mul_bwd","pid":0,"tid":7,"ts":` + at(165) + `,"dur":8,"args":{"correlation":` + corr(7) + `}}`,
		`{"ph":"X","cat":"kernel","name":"accumulate","pid":0,"tid":7,"ts":` + at(185) + `,"dur":1,"args":{"correlation":` + corr(8) + `}}`,
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func handTrace() string {
	evs := append(step(1, 1000, 100), step(2, 2000, 200)...)
	return `{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":3,"world_size":8},"traceEvents":[` + strings.Join(evs, ",\n") + `]}`
}

func TestReadHandTrace(t *testing.T) {
	t.Parallel()
	p, rep, err := Read(strings.NewReader(handTrace()), "dir/tiny.json", Options{})
	require.NoError(t, err)
	require.Equal(t, "tiny", p.Model)
	require.Equal(t, 32, p.Batch, "first dimensions 32 (linear) and 64 (relu) tie; the smaller wins")
	require.True(t, rep.BatchInferred)
	require.Equal(t, "gpu", rep.Clock)
	require.Equal(t, 2, rep.Steps)
	require.Equal(t, 2, rep.Averaged)
	require.Equal(t, "ProfilerStep#1", rep.Step)
	require.Len(t, p.Layers, 3)
	// Order by sequence number: MulBackward0 (4, backward only), linear (5), relu (6).
	l := p.Layers
	require.Equal(t, []string{"L000:bwd:MulBackward0", "L001:aten::linear", "L002:aten::relu"}, []string{l[0].Name, l[1].Name, l[2].Name})
	require.InDelta(t, 0, l[0].Forward, 1e-15)
	require.InDelta(t, 8e-6, l[0].Backward, 1e-15)
	require.InDelta(t, 30e-6, l[1].Forward, 1e-15, "gemm launched by addmm inside linear")
	require.InDelta(t, 50e-6, l[1].Backward, 1e-15, "AddmmBackward0 via seq 5; the NCCL kernel is excluded")
	require.InDelta(t, 4e-6, l[2].Forward, 1e-15)
	require.InDelta(t, 6e-6, l[2].Backward, 1e-15)
	require.Equal(t, int64((10*100+10)*4), l[1].ParamBytes, "linear weight 10×100 + bias 10, float; nested addmm not counted twice")
	require.Equal(t, []int{0}, l[1].Inputs)
	require.Equal(t, "aten::linear [[32, 100], [10, 100], [10]]", l[1].Description)
	require.Contains(t, l[0].Description, "backward only")
	require.Equal(t, 2, rep.MatchedBackward)
	require.Equal(t, 1, rep.BackwardOnly)
	require.Equal(t, 2, rep.ForwardLayers)
	require.InDelta(t, 34e-6, rep.Forward, 1e-15)
	require.InDelta(t, 64e-6, rep.Backward, 1e-15)
	require.InDelta(t, 2e-6, rep.UnattributedGPU, 1e-15, "memcpy of aten::item")
	require.InDelta(t, 1e-6, rep.UnattributedBwd, 1e-15, "AccumulateGrad")
	require.Equal(t, 2, rep.NCCLKernels)
	require.InDelta(t, 800e-6, rep.NCCLKernelSeconds, 1e-15)
	require.Equal(t, []Comm{{Name: "ncclKernel_AllReduce_RING_LL_Sum_float", Count: 2, Seconds: 800e-6}}, rep.Kernels)
	require.Equal(t, []Comm{{Name: "nccl:all_reduce", Count: 2, Seconds: 4e-6, Bytes: 2 * 1010 * 4}}, rep.Collectives)
	require.Equal(t, [3]any{"nccl", 3, 8}, [3]any{rep.Backend, rep.Rank, rep.WorldSize})

	// The profile feeds zoo.Synthesize at any bandwidth.
	for _, bw := range []float64{1e6, 1.25e9} {
		tr, err := zoo.Synthesize(p, zoo.Options{Steps: 2, Bandwidth: bw})
		require.NoError(t, err)
		require.NoError(t, tr.Validate())
	}
}

func TestReadOptions(t *testing.T) {
	t.Parallel()
	p, rep, err := Read(strings.NewReader(handTrace()), "t.json", Options{Clock: "cpu", Batch: 16, Model: "m", Step: 1})
	require.NoError(t, err)
	require.Equal(t, "ProfilerStep#2", rep.Step)
	require.Equal(t, [2]any{16, "m"}, [2]any{p.Batch, p.Model})
	require.False(t, rep.BatchInferred)
	require.InDelta(t, 50e-6, p.Layers[1].Forward, 1e-15, "cpu clock: aten::linear wall time")
	require.InDelta(t, 30e-6, p.Layers[1].Backward, 1e-15)
	require.InDelta(t, 0, rep.UnattributedGPU, 0)

	// gzip by content, whatever the name.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(handTrace()))
	require.NoError(t, zw.Close())
	q, _, err := Read(&gz, "t.json", Options{})
	require.NoError(t, err)
	require.Len(t, q.Layers, 3)

	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Clock: "tpu"}, `Options.Clock "tpu"`},
		{Options{Step: 2}, "Options.Step 2, but the trace has 2 profiler steps (indices 0 to 1)"},
		{Options{Step: -1}, "Options.Step -1: want a step index ≥ 0"},
		{Options{Batch: -1}, "Options.Batch -1: want ≥ 0"},
	} {
		_, _, err := Read(strings.NewReader(handTrace()), "t.json", c.opt)
		require.ErrorContains(t, err, c.want)
	}
	var se *StepError
	_, _, err = Read(strings.NewReader(handTrace()), "t.json", Options{Step: 5})
	require.ErrorAs(t, err, &se)
	require.Equal(t, StepError{Name: "t.json", Step: 5, Steps: 2}, *se)
}

func TestReadRejects(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`{"traceEvents":[]}`, "no cpu_op events"},
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","ts":1}]}`, `event 0 at byte 16: "a": complete event without ts`},
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","ts":1,"dur":1,"args":{"Sequence number":-3}}]}`, "Sequence number -3"},
		{`{"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":1,"dur":1,"args":{"correlation":"x"}}]}`, "correlation"},
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","ts":1,"dur":1}]}`, "no forward or backward op with a sequence number"},
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","ts":1,"dur":1,"args":{"Sequence number":1}}]}`, "cannot infer the batch"},
		{`{"traceEvents":[{"ph":"X"`, "unexpected end of input"},
		{"\x1f\x8bnot gzip", "gzip"},
		{`{"distributedInfo":7,"traceEvents":[]}`, "distributedInfo"},
		// Input Dims of a parametric op: a string, a dimension that is not
		// a whole number, and shapes whose element count overflows.
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::linear","ts":1,"dur":1,"args":{"Input Dims":"32x100"}}]}`,
			`event 0 at byte 16: "aten::linear": Input Dims "32x100": want a list of input shapes`},
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::linear","ts":1,"dur":1,"args":{"Input Dims":[[32, 1.5]]}}]}`,
			"Input Dims: input 0 shape [32, 1.5]: dimension 1.5 is not a whole number"},
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::linear","ts":1,"dur":1,"args":{"Input Dims":[[32], [100000000000, 100000000000]]}}]}`,
			"Input Dims: input 1 shape [100000000000, 100000000000] has 1e+22 elements"},
		{`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::linear","ts":1,"dur":1,"args":{"Input Dims":[[32], [1e30]]}}]}`,
			"Input Dims: input 1 shape [1e30] has 1e+30 elements"},
		{`{"traceEvents":[{"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","ts":1,"dur":1,"args":{"Input Dims":{"a":1}}}]}`,
			`"nccl:all_reduce": Input Dims {"a":1}`},
	} {
		_, _, err := Read(strings.NewReader(c.in), "k.json", Options{})
		require.ErrorContains(t, err, c.want, c.in)
	}
}

// TestRealTraces reads the two HolisticTraceAnalysis sample traces (2 of
// 128 ranks of a recommendation model, sampled events). Expected values
// were computed independently with a Python script applying the same
// rules to the decompressed JSON (json.load, nesting by time per thread,
// correlation ids): step ProfilerStep#551 of rank 0 has 195 forward
// layers, 97 backward-only layers, 48 backward ops matched by sequence
// number, GPU time 17.101 ms forward and 69.824 ms backward, 19.847 ms of
// GPU work outside layers and 316,187,980 parameter bytes; rank 1 has
// 192, 101, 43, 18.278 ms, 90.625 ms, 29.167 ms and 700,435,188 bytes.
// Step #552 lists different ops (events are sampled), so it is not
// averaged in.
func TestRealTraces(t *testing.T) {
	t.Parallel()
	want := []struct {
		fwd, bwdOnly, matched int
		forward, backward     float64
		loose                 float64
		params                int64
		kernels               int
		kernelSeconds         float64
	}{
		{195, 97, 48, 17.101e-3, 69.824e-3, 19.847e-3, 316187980, 10, 396.199e-3},
		{192, 101, 43, 18.278e-3, 90.625e-3, 29.167e-3, 700435188, 10, 379.053e-3},
	}
	for rank, w := range want {
		path := "../../../shared/datasets/traces/kineto-hta-sampled_rank-" + itoa(rank) + ".json.gz"
		f, err := os.Open(path)
		if err != nil {
			t.Skipf("traces not available: %v", err)
		}
		p, rep, err := Read(f, path, Options{})
		f.Close()
		require.NoError(t, err)
		require.Equal(t, "kineto-hta-sampled_rank-"+itoa(rank), p.Model)
		require.Equal(t, rank, rep.Rank)
		require.Equal(t, 128, rep.WorldSize)
		require.Equal(t, 2, rep.Steps)
		require.Equal(t, 1, rep.Averaged)
		require.Equal(t, 2048, p.Batch)
		require.Equal(t, w.fwd, rep.ForwardLayers)
		require.Equal(t, w.bwdOnly, rep.BackwardOnly)
		require.Equal(t, w.matched, rep.MatchedBackward)
		require.InDelta(t, w.forward, rep.Forward, 1e-9)
		require.InDelta(t, w.backward, rep.Backward, 1e-9)
		require.InDelta(t, w.loose, rep.UnattributedGPU, 1e-9)
		require.Equal(t, w.params, rep.ParamBytes)
		require.Equal(t, w.params, p.ParamBytes())
		require.Equal(t, w.kernels, rep.NCCLKernels)
		require.InDelta(t, w.kernelSeconds, rep.NCCLKernelSeconds, 1e-9)
		require.Equal(t, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", rep.Kernels[0].Name)
		tr, err := zoo.Synthesize(p, zoo.Options{Steps: 1, Bandwidth: 1.25e9})
		require.NoError(t, err)
		require.NoError(t, tr.Validate())
	}
}

// TestSharedSequenceNumber: ops that create no autograd node keep the
// sequence number, so aten::zero_ and aten::mul both carry 7; the node
// (MulBackward0, 7) belongs to the later one, whatever the file order.
func TestSharedSequenceNumber(t *testing.T) {
	t.Parallel()
	in := `[` +
		`{"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":10,"dur":5,"args":{"Input Dims":[[4, 2]],"Sequence number":7}},` +
		`{"ph":"X","cat":"cpu_op","name":"aten::zero_","pid":1,"tid":1,"ts":0,"dur":5,"args":{"Input Dims":[[4, 2]],"Sequence number":7}},` +
		`{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: MulBackward0","pid":1,"tid":2,"ts":20,"dur":3,"args":{"Sequence number":7}}]`
	p, rep, err := Read(strings.NewReader(in), "s.json", Options{})
	require.NoError(t, err)
	require.Equal(t, "cpu", rep.Clock)
	require.Len(t, p.Layers, 2)
	require.Equal(t, []string{"L000:aten::zero_", "L001:aten::mul"}, []string{p.Layers[0].Name, p.Layers[1].Name})
	require.InDelta(t, 0, p.Layers[0].Backward, 0)
	require.InDelta(t, 3e-6, p.Layers[1].Backward, 1e-15)
	require.Equal(t, 4, p.Batch)
	require.Equal(t, "whole trace", rep.Step)
}
