package predict

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// TestZhangFromSynthesizedTrace: zhang on the layers derived from a trace
// synthesized from a profile gives the iterations zhang gives on the
// profile itself: the derivation merges parameter-free layers into their
// neighbours, which Zhang's iteration does not see (measured: equal to
// 4·10^-15 on the toy, AlexNet, ResNet-50, Inception v3 and VGG-16 with 1
// and 2 PSs, W = 1..16).
func TestZhangFromSynthesizedTrace(t *testing.T) {
	t.Parallel()
	workers := []int{1, 2, 4, 8, 16}
	for _, prof := range []*zoo.Profile{zoo.Toy(), zooProfile(t, "alexnet"), zooProfile(t, "resnet50"), zooProfile(t, "inception_v3")} {
		for _, servers := range []int{1, 2} {
			const bw = 1.25e9
			tr, err := zoo.Synthesize(prof, zoo.Options{Steps: 3, Servers: servers, Bandwidth: bw, Window: 28e6})
			require.NoError(t, err)
			layers, err := zhangLayers(tr)
			require.NoError(t, err, prof.Model)
			var params int64
			for _, l := range layers {
				params += l.ParamBytes
			}
			require.Equal(t, prof.ParamBytes(), params, "%s: every parameter byte in one layer", prof.Model)
			want, err := zhang(prof, Cluster{}, servers, bw, workers)
			require.NoError(t, err)
			got, err := zhangOn(layers, 1, prof.Batch, Cluster{}, servers, bw, workers)
			require.NoError(t, err)
			for i := range workers {
				require.InEpsilon(t, want[i], got[i], 1e-9, "%s, %d PS, W = %d", prof.Model, servers, workers[i])
			}
		}
	}
}

// TestZhangFromTestbedTraces: on real recorded traces (the testbed's
// 1-worker profiles of the committed configurations) zhang on the derived
// layers stays within 2% of zhang on the per-layer profile the testbed
// emulated, scaled as the testbed scaled it (compute_scale, bytes_scale):
// the difference is what the run measured, e.g. ResNet-50's backward
// 3% shorter than the profile's at W = 1 (+1.4% throughput), vanishing by
// W = 4 where the network dominates.
func TestZhangFromTestbedTraces(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"resnet50-mux", "vgg16-mux", "inception_v3-mux", "resnet50-2ps-mux", "alexnet-b512-ordered-tic"} {
		tab, err := dataset.ReadAny(filepath.Join("..", "..", "datasets", "testbed", c, "trace.arrow"), dataset.Allocator)
		require.NoError(t, err)
		tr, err := dataset.ToTrace(tab)
		require.NoError(t, err)
		x := tab.Provenance.Extra
		cs, err := strconv.ParseFloat(x["testbed.compute_scale"], 64)
		require.NoError(t, err)
		bs, err := strconv.ParseFloat(x["testbed.bytes_scale"], 64)
		require.NoError(t, err)
		prof := zooProfile(t, strings.TrimSuffix(x["testbed.profile"], ".arrow"))
		for i := range prof.Layers {
			l := &prof.Layers[i]
			l.Forward, l.Backward = l.Forward*cs, l.Backward*cs
			l.ParamBytes = int64(math.Round(float64(l.ParamBytes) * bs))
		}
		prof.Batch = tr.Meta.Batch // compute_scale holds the batch ratio
		layers, err := zhangLayers(tr)
		require.NoError(t, err, c)
		workers := []int{1, 2, 4, 8}
		want, err := zhang(prof, Cluster{}, tr.Meta.Servers, tr.Meta.Bandwidth, workers)
		require.NoError(t, err)
		got, err := zhangOn(layers, 1, tr.Meta.Batch, Cluster{}, tr.Meta.Servers, tr.Meta.Bandwidth, workers)
		require.NoError(t, err)
		for i := range workers {
			require.InEpsilon(t, want[i], got[i], 0.02, "%s, W = %d", c, workers[i])
		}
	}
}

// TestZhangLayersRefused: traces that do not pair their parameters are
// refused with the op at fault.
func TestZhangLayersRefused(t *testing.T) {
	t.Parallel()
	w := trace.Resource{Kind: trace.Worker}
	down := trace.Resource{Kind: trace.Downlink}
	up := trace.Resource{Kind: trace.Uplink}
	step := func(ops ...trace.Op) *trace.Trace { return &trace.Trace{Steps: []trace.Step{{Ops: ops}}} }
	_, err := zhangLayers(step(trace.Op{Name: "a/fwd", Resource: w, End: 10}))
	require.ErrorContains(t, err, "no parameter downlink")
	_, err = zhangLayers(step(
		trace.Op{Name: "a/down", Resource: down, End: 5, Bytes: 8},
		trace.Op{Name: "a/fwd", Resource: w, Start: 5, End: 10, Deps: []int32{0}},
		trace.Op{Name: "a/up", Resource: up, Start: 10, End: 20, Bytes: 4, Deps: []int32{1}}))
	require.ErrorContains(t, err, `"a/up" (4 bytes) pairs with downlink "a/down" (8 bytes)`)
	_, err = zhangLayers(step(
		trace.Op{Name: "a/down", Resource: down, End: 5, Bytes: 8},
		trace.Op{Name: "a/fwd", Resource: w, Start: 5, End: 10}))
	require.ErrorContains(t, err, "1 downlinks but 0 uplinks")
}
