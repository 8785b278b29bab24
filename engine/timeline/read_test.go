package timeline

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// stockTF is a 1-worker/1-PS TensorFlow timeline in the form
// Timeline.generate_chrome_trace_format writes (lanes first, one event per
// op on "<device> Compute", GPU stream lanes repeating ops, dataflow
// events), plus the args.bytes the importer needs.
const stockTF = `{"traceEvents":[
{"name":"process_name","ph":"M","pid":0,"args":{"name":"Allocators"}},
{"name":"process_name","ph":"M","pid":1,"args":{"name":"/job:worker/replica:0/task:0/device:GPU:0 Compute"}},
{"name":"process_name","ph":"M","pid":2,"args":{"name":"/job:worker/replica:0/task:0/device:GPU:0 Tensors"}},
{"name":"process_name","ph":"M","pid":3,"args":{"name":"/job:ps/replica:0/task:0/device:CPU:0 Compute"}},
{"name":"process_name","ph":"M","pid":5,"args":{"name":"/job:worker/replica:0/task:0/device:GPU:0/stream:all Compute"}},
{"ph":"X","cat":"Op","name":"Identity","pid":3,"tid":0,"ts":1000,"dur":5,"args":{"name":"w/read","op":"Identity","input0":"w"}},
{"ph":"X","cat":"Op","name":"_Send","pid":3,"tid":0,"ts":1005,"dur":1,"args":{"name":"w/read/_0","op":"_Send","input0":"w/read"}},
{"ph":"X","cat":"Op","name":"_Recv","pid":1,"tid":0,"ts":1002,"dur":300.5,"args":{"name":"w/read/_1","op":"_Recv","bytes":4000}},
{"ph":"X","cat":"Op","name":"IteratorGetNext","pid":1,"tid":1,"ts":1001,"dur":50,"args":{"name":"IteratorGetNext","op":"IteratorGetNext","input0":"IteratorV2"}},
{"ph":"X","cat":"Op","name":"MatMul","pid":1,"tid":0,"ts":1310,"dur":40,"args":{"name":"dense/MatMul","op":"MatMul","input0":"IteratorGetNext","input1":"w/read/_1"}},
{"ph":"X","cat":"Op","name":"MatMul","pid":5,"tid":0,"ts":1311,"dur":30,"args":{"name":"dense/MatMul","op":"MatMul"}},
{"ph":"X","cat":"Op","name":"MatMul","pid":1,"tid":0,"ts":1360,"dur":60,"args":{"name":"gradients/dense/MatMul_grad/MatMul_1","op":"MatMul","input0":"IteratorGetNext:0","input1":"^dense/MatMul"}},
{"ph":"X","cat":"Op","name":"_Send","pid":1,"tid":0,"ts":1420,"dur":1,"args":{"name":"gradients/dense/MatMul_grad/MatMul_1/_2","op":"_Send","input0":"gradients/dense/MatMul_grad/MatMul_1"}},
{"ph":"X","cat":"Op","name":"_Recv","pid":3,"tid":0,"ts":1421,"dur":250,"args":{"name":"gradients/dense/MatMul_grad/MatMul_1/_3","op":"_Recv","bytes":"4000"}},
{"ph":"X","cat":"Op","name":"ApplyGradientDescent","pid":3,"tid":0,"ts":1680,"dur":20,"args":{"name":"GradientDescent/update_w/ApplyGradientDescent","op":"ApplyGradientDescent","input0":"w","input1":"learning_rate","input2":"gradients/dense/MatMul_grad/MatMul_1/_3"}},
{"ph":"s","cat":"DataFlow","name":"w/read","pid":3,"tid":0,"ts":1000,"id":0},
{"ph":"t","cat":"DataFlow","name":"w/read","pid":1,"tid":0,"ts":1310,"id":0}
]}`

func TestReadStockTFTimeline(t *testing.T) {
	t.Parallel()
	tr, rep, err := Read(strings.NewReader(stockTF), "step0.json", trace.Meta{Model: "dense", Batch: 32})
	require.NoError(t, err)
	require.Len(t, tr.Steps, 1)
	// Origin: the earliest kept op, IteratorGetNext at 1001 µs (the PS
	// read at 1000 µs precedes the step's transfers and is dropped).
	want := []trace.Op{
		{Name: "w/read/_1", Resource: trace.Resource{Kind: trace.Downlink}, Start: 1000, End: 301500, Bytes: 4000},
		{Name: "IteratorGetNext", Resource: trace.Resource{Kind: trace.Worker}, Start: 0, End: 50000, Deps: []int32{0}},
		{Name: "dense/MatMul", Resource: trace.Resource{Kind: trace.Worker}, Start: 309000, End: 349000, Deps: []int32{1, 0}},
		{Name: "gradients/dense/MatMul_grad/MatMul_1", Resource: trace.Resource{Kind: trace.Worker}, Start: 359000, End: 419000, Deps: []int32{1, 2}},
		{Name: "gradients/dense/MatMul_grad/MatMul_1/_3", Resource: trace.Resource{Kind: trace.Uplink}, Start: 420000, End: 670000, Bytes: 4000, Deps: []int32{3}},
		{Name: "GradientDescent/update_w/ApplyGradientDescent", Resource: trace.Resource{Kind: trace.PS}, Start: 679000, End: 699000, Deps: []int32{4}},
	}
	require.Equal(t, want, tr.Steps[0].Ops)
	require.Equal(t, trace.Meta{Source: "step0.json", Model: "dense", Batch: 32, Servers: 1}, tr.Meta)
	require.Equal(t, 1, rep.Files)
	require.Equal(t, 17, rep.Events)
	require.Equal(t, 3, rep.Dropped, "PS read before the downlink and two _Send ops")
	require.Equal(t, 1, rep.Gated, "IteratorGetNext has no dependency in the step")
	require.Equal(t, 4, rep.Unresolved, "w twice, IteratorV2, learning_rate")
	require.Equal(t, 8, rep.Skipped, "5 lanes, 1 GPU-stream op, 2 flow events")
	require.Equal(t, 6, rep.Ops)
	require.Equal(t, [4]int{1, 1, 3, 1}, [4]int{rep.Downlinks, rep.Uplinks, rep.WorkerOps, rep.PSOps})
	require.Equal(t, int64(4000), rep.DownBytes)
	require.Equal(t, int64(4000), rep.UpBytes)
}

// twoSteps has step markers; step 1 lists its ops in another order and
// uses two PS (send_device picks the PS of each downlink).
const twoSteps = `{"otherData":{"model":"m","servers":2},"traceEvents":[
{"ph":"M","name":"process_name","pid":1,"args":{"name":"/job:worker/replica:0/task:3/device:CPU:0 Compute"}},
{"ph":"M","name":"process_name","pid":2,"args":{"name":"/job:ps/replica:0/task:0/device:CPU:0 Compute"}},
{"ph":"M","name":"process_name","pid":3,"args":{"name":"/job:ps/replica:0/task:1/device:CPU:0 Compute"}},
{"ph":"X","cat":"Step","name":"step 0","pid":1,"ts":100,"dur":10},
{"ph":"X","name":"_Recv","pid":1,"ts":100,"dur":2,"args":{"name":"a","op":"_Recv","bytes":10,"send_device":"/job:ps/replica:0/task:1/device:CPU:0"}},
{"ph":"X","name":"_Recv","pid":1,"ts":100,"dur":3,"args":{"name":"b","op":"_HostRecv","bytes":20,"send_device":"/job:ps/replica:0/task:0/device:CPU:0"}},
{"ph":"X","name":"Conv","pid":1,"ts":103,"dur":1,"args":{"name":"c","op":"Conv2D","input0":"a","input1":"b"}},
{"ph":"i","cat":"Step","name":"step 1","pid":1,"ts":200},
{"ph":"X","name":"Conv","pid":1,"ts":204,"dur":2,"args":{"name":"c","op":"Conv2D","input0":"a","input1":"b"}},
{"ph":"X","name":"_Recv","pid":1,"ts":200,"dur":4,"args":{"name":"b","op":"_Recv","bytes":20,"send_device":"/job:ps/replica:0/task:0/device:CPU:0"}},
{"ph":"X","name":"_Recv","pid":1,"ts":200.001,"dur":1,"args":{"name":"a","op":"_Recv","bytes":10,"send_device":"/job:ps/replica:0/task:1/device:CPU:0"}}
]}`

func TestReadMarkedStepsReordered(t *testing.T) {
	t.Parallel()
	tr, rep, err := Read(strings.NewReader(twoSteps), "two.json", trace.Meta{})
	require.NoError(t, err)
	require.Len(t, tr.Steps, 2)
	down := func(ps int) trace.Resource { return trace.Resource{Kind: trace.Downlink, PS: ps} }
	w := trace.Resource{Kind: trace.Worker}
	require.Equal(t, []trace.Op{
		{Name: "a", Resource: down(1), Start: 0, End: 2000, Bytes: 10},
		{Name: "b", Resource: down(0), Start: 0, End: 3000, Bytes: 20},
		{Name: "c", Resource: w, Start: 3000, End: 4000, Deps: []int32{0, 1}},
	}, tr.Steps[0].Ops)
	require.Equal(t, []trace.Op{
		{Name: "a", Resource: down(1), Start: 1, End: 1001, Bytes: 10},
		{Name: "b", Resource: down(0), Start: 0, End: 4000, Bytes: 20},
		{Name: "c", Resource: w, Start: 4000, End: 6000, Deps: []int32{0, 1}},
	}, tr.Steps[1].Ops)
	require.Equal(t, trace.Meta{Source: "two.json", Model: "m", Servers: 2}, tr.Meta)
	require.Equal(t, 2, rep.Steps)
	require.Equal(t, int64(30), rep.DownBytes)
}

func TestImporterConcatenatesFiles(t *testing.T) {
	t.Parallel()
	var im Importer
	require.NoError(t, im.Add(strings.NewReader(stockTF), "s0.json"))
	shifted := strings.ReplaceAll(stockTF, `"ts":1`, `"ts":9`) // same step, 8 ms later
	require.NoError(t, im.Add(strings.NewReader(shifted), "s1.json"))
	tr, rep, err := im.Trace(trace.Meta{}, []string{"s0.json", "s1.json"})
	require.NoError(t, err)
	require.Equal(t, 2, rep.Files)
	require.Len(t, tr.Steps, 2)
	require.Equal(t, tr.Steps[0], tr.Steps[1], "times are relative to each step's start")
	require.Equal(t, "s0.json, s1.json", tr.Meta.Source)
}
