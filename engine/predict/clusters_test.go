package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/mva"
	"pslab/engine/sim"
	"pslab/engine/zoo"
)

// oneLayer is a toy profile with known phases at batch 32: forward 0.1 s,
// backward 0.2 s, 1 MB of parameters (0.1 s each way at 10 MB/s).
func oneLayer() *zoo.Profile {
	return &zoo.Profile{Model: "one-layer", Source: "test", Batch: 32, Layers: []zoo.Layer{
		{Name: "in", Description: zoo.InputDescription},
		{Name: "fc", Description: "Linear", Forward: 0.1, Backward: 0.2, ParamBytes: 1e6, Inputs: []int{0}}}}
}

// twoLayers has two equal 1 MB layers, so two PSs get equal shards.
func twoLayers() *zoo.Profile {
	p := oneLayer()
	p.Layers = append(p.Layers, zoo.Layer{Name: "fc2", Description: "Linear", Forward: 0.1, Backward: 0.2, ParamBytes: 1e6, Inputs: []int{1}})
	return p
}

func toyProfileCluster() Cluster {
	return Cluster{Bandwidth: 1e7, Link: sim.Link{Mode: sim.WholeStream}, Steps: 60, Warmup: 5, ProfileSteps: 10, Seed: 1}
}

// Item 6: MVA's phases from a profile are compute, transfer time at the
// bandwidth and update ops; the tcpdump reading counted the backward pass
// (which runs before the first uplink) correctly here but not the forward,
// which overlaps nothing, so both agree on this one-layer toy except
// S^W/S^D; a two-layer model shows the difference.
func TestOpPhasesFromProfile(t *testing.T) {
	t.Parallel()
	c := toyProfileCluster()
	tr, err := c.Synthesize(oneLayer())
	require.NoError(t, err)
	co, err := FromTrace(tr)
	require.NoError(t, err)
	upd := zoo.DefaultUpdateTime * 1e6
	want := mva.Phases{Worker: 0.3, Uplink: 0.1, Server: upd, Downlink: 0.1}
	require.InDelta(t, want.Worker, co.OpPhases.Worker, 1e-8)
	require.InDelta(t, want.Uplink, co.OpPhases.Uplink, 1e-8)
	require.InDelta(t, want.Server, co.OpPhases.Server, 1e-8)
	require.InDelta(t, want.Downlink, co.OpPhases.Downlink, 1e-8)

	// Two layers: the second layer's backward overlaps the first uplink,
	// which tcpdump counts as link time; the op reading does not.
	tr2, err := c.Synthesize(twoLayers())
	require.NoError(t, err)
	co2, err := FromTrace(tr2)
	require.NoError(t, err)
	require.InDelta(t, 0.6, co2.OpPhases.Worker, 1e-8)
	require.InDelta(t, 0.2, co2.OpPhases.Uplink, 1e-8)
	require.Less(t, co2.Phases.Worker, co2.OpPhases.Worker, "tcpdump counts compute as link time")

	p, err := RunProfile(twoLayers(), c, []int{1}, []Model{MVAExact})
	require.NoError(t, err)
	require.InDelta(t, 32/co2.OpPhases.Cycle(), p.Curves[0].Throughput[0], 1e-9)
}

// Every option on a toy with a closed-form answer.
func TestClusterOptionsClosedForm(t *testing.T) {
	t.Parallel()
	ws := []int{1, 2, 4}
	for _, tc := range []struct {
		name  string
		check func(t *testing.T)
	}{
		{"G GPUs with unlimited intra bandwidth are G× one GPU", func(t *testing.T) {
			for _, y := range []sim.Sync{sim.ASP, sim.BSP} {
				c := toyProfileCluster()
				c.Sync = y
				c.Precision = shortPrecision()
				one, err := RunProfile(twoLayers(), c, ws, AllModels())
				require.NoError(t, err)
				c.GPUsPerNode, c.IntraBandwidth = 8, math.Inf(1)
				eight, err := RunProfile(twoLayers(), c, ws, AllModels())
				require.NoError(t, err)
				require.Equal(t, 8*32, eight.Batch)
				require.NotEmpty(t, eight.Curves)
				for i, cv := range eight.Curves {
					for k := range ws {
						require.InEpsilon(t, 8*one.Curves[i].Throughput[k], cv.Throughput[k], 1e-9, "%s %s W=%d", y, cv.Model, ws[k])
					}
				}
			}
		}},
		{"intra-node time slows a node", func(t *testing.T) {
			c := toyProfileCluster()
			c.GPUsPerNode, c.IntraBandwidth = 4, 1e7 // as slow as the network
			p, err := RunProfile(twoLayers(), c, []int{1}, []Model{MVAExact})
			require.NoError(t, err)
			// each 1 MB tensor: 0.75·0.1 s reduce + 0.75·0.1 s broadcast
			require.InDelta(t, 4*32/(0.6+0.3+0.2+0.2+2*zoo.DefaultUpdateTime*1e6), p.Curves[0].Throughput[0], 1e-6)
		}},
		{"colocated 1 node is 1 worker without network", func(t *testing.T) {
			c := toyProfileCluster()
			c.Colocate = true
			co, err := RunProfile(twoLayers(), c, []int{1}, AllModels())
			require.NoError(t, err)
			c.Colocate, c.Bandwidth = false, noNetwork
			alone, err := RunProfile(twoLayers(), c, []int{1}, AllModels())
			require.NoError(t, err)
			require.Equal(t, alone.Curves, co.Curves)
			x, _ := co.Curve(Simulator)
			step := 0.6 + zoo.DefaultUpdateTime*1e6 // compute, then the last update
			require.InEpsilon(t, 32/step, x[0], 1e-6)
		}},
		{"colocated W nodes: shared NICs in the simulator, W PS at B·W/(2(W−1)) for the others", func(t *testing.T) {
			c := toyProfileCluster()
			c.Colocate = true
			p, err := RunProfile(twoLayers(), c, ws, []Model{Simulator, MVAExact})
			require.NoError(t, err)
			require.Equal(t, ws, p.Workers)
			require.True(t, p.Colocated)
			require.Contains(t, strings.Join(p.Notes, "\n"), "simulated as such (max-min fair flows")
			require.Len(t, p.Curves[0].Throughput, 3)
			require.InDelta(t, 1e7, ColocatedBandwidth(1e7, 2), 1e-6)
			require.InDelta(t, 1e7*4/6, ColocatedBandwidth(1e7, 4), 1e-6)
		}},
		{"bsp with one worker equals asp", func(t *testing.T) {
			// The same process estimated two ways (MSER-5 replications,
			// regenerative cycles): the intervals must overlap.
			c := toyProfileCluster()
			c.Jitter = 0.1
			asp, err := RunProfile(twoLayers(), c, []int{1}, []Model{Simulator})
			require.NoError(t, err)
			c.Sync = sim.BSP
			bsp, err := RunProfile(twoLayers(), c, []int{1}, []Model{Simulator})
			require.NoError(t, err)
			a, b := asp.Curves[0], bsp.Curves[0]
			require.True(t, a.Converged[0] && b.Converged[0])
			require.LessOrEqual(t, math.Abs(a.Throughput[0]-b.Throughput[0]), (a.Hi[0]-a.Lo[0]+b.Hi[0]-b.Lo[0])/2, "asp %+v, bsp %+v", a, b)
		}},
		{"m PS with equal shards divide the link and update times by m", func(t *testing.T) {
			c := toyProfileCluster()
			one, err := RunProfile(twoLayers(), c, []int{1}, []Model{MVAExact, Cynthia})
			require.NoError(t, err)
			c.Servers = 2
			two, err := RunProfile(twoLayers(), c, []int{1}, []Model{MVAExact, Cynthia})
			require.NoError(t, err)
			require.Equal(t, 2, two.Servers)
			ph := two.Coarse.OpPhases
			require.InDelta(t, one.Coarse.OpPhases.Uplink, ph.Uplink, 1e-8, "1-PS equivalent phases")
			x, _ := two.Curve(MVAExact)
			require.InDelta(t, 32/(ph.Worker+(ph.Uplink+ph.Server+ph.Downlink)/2), x[0], 1e-9)
		}},
		{"m PS in every model, n/a per row otherwise", func(t *testing.T) {
			c := toyProfileCluster()
			c.Servers, c.Sync = 3, sim.BSP
			p, err := RunProfile(twoLayers(), c, ws, AllModels())
			require.NoError(t, err)
			for _, m := range []Model{MVAExact, MVAApproximate, MVAHybrid} {
				require.Equal(t, "asp only", p.Why(m))
			}
			for _, m := range []Model{Simulator, Cynthia, Zhang} {
				_, ok := p.Curve(m)
				require.True(t, ok, m)
			}
		}},
		{"calibrate hits its point within 0.5%", func(t *testing.T) {
			if testing.Short() {
				t.Skip("-short: calibration bisects over many converged simulations")
			}
			c := toyProfileCluster()
			c.Jitter = 0.05
			at1, err := RunProfile(twoLayers(), c, []int{2}, []Model{Simulator})
			require.NoError(t, err)
			target := 0.8 * at1.Curves[0].Throughput[0]
			cal, err := Calibrate(twoLayers(), c, Point{Workers: 2, Throughput: target})
			require.NoError(t, err)
			c.DeviceSpeed = cal.DeviceSpeed
			p, err := RunProfile(twoLayers(), c, []int{1, 2, 4}, []Model{Simulator})
			require.NoError(t, err)
			require.InEpsilon(t, target, p.Curves[0].Throughput[1], CalibrationTolerance)
			require.Less(t, cal.DeviceSpeed, 1.0, "slower than at the profiled device's speed")
			_, err = Calibrate(twoLayers(), c, Point{Workers: 2, Throughput: 1e6})
			require.ErrorContains(t, err, "link bound")
		}},
		{"knee at 95% of a non-monotone curve's max", func(t *testing.T) {
			require.Equal(t, 15, KneeAt([]int{1, 5, 10, 15, 20}, []float64{100, 477, 467, 625, 570}, 0.95))
			require.Equal(t, 1, KneeAt([]int{1, 2}, []float64{5, 5}, 0.95))
		}},
		{"bad input", func(t *testing.T) {
			_, err := NodeProfile(oneLayer(), 0, 1e9, 32, 1)
			require.ErrorContains(t, err, "GPUs per node")
			c := toyProfileCluster()
			c.GPUsPerNode = -1
			_, err = RunProfile(oneLayer(), c, ws, AllModels())
			require.ErrorContains(t, err, "GPUs per node")
			for _, s := range []string{"0:250", "1:0", "1:-3", "1:NaN", "1:+Inf", "x:1", "250"} {
				_, err := ParsePoint(s)
				require.Error(t, err, s)
			}
			pt, err := ParsePoint("1:250")
			require.NoError(t, err)
			require.Equal(t, Point{1, 250}, pt)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.check(t)
		})
	}
}

// The timeline parses as Chrome JSON and no two complete events on one
// track overlap, though receive-thread overheads do overlap in time.
func TestTimelineNoOverlapOnATrack(t *testing.T) {
	t.Parallel()
	for _, colocate := range []bool{false, true} {
		t.Run(fmt.Sprintf("colocate=%v", colocate), func(t *testing.T) { timelineNoOverlap(t, colocate) })
	}
}

func timelineNoOverlap(t *testing.T, colocate bool) {
	c := toyProfileCluster()
	c.Alpha, c.Beta, c.Steps, c.Colocate = 1e-8, 0.5, 4, colocate // overheads longer than a transfer overlap
	var b bytes.Buffer
	require.NoError(t, Timeline(&b, twoLayers(), nil, c, 3))
	var tr chromeTrace
	require.NoError(t, json.Unmarshal(b.Bytes(), &tr))
	type track struct{ pid, tid int }
	byTrack := map[track][]chromeEvent{}
	named := map[track]string{}
	n := 0
	for _, e := range tr.TraceEvents {
		switch e.Ph {
		case "X":
			byTrack[track{e.Pid, e.Tid}] = append(byTrack[track{e.Pid, e.Tid}], e)
			n++
		case "M":
			var a struct{ Name string }
			require.NoError(t, json.Unmarshal(e.Args, &a))
			named[track{e.Pid, e.Tid}] = a.Name
		}
	}
	require.Greater(t, n, 50)
	extra := 0
	for k, ev := range byTrack {
		require.NotEmpty(t, named[k], "track %v has a name", k)
		sort.Slice(ev, func(a, b int) bool { return ev[a].Ts < ev[b].Ts })
		for i := 1; i < len(ev); i++ {
			require.LessOrEqual(t, ev[i-1].Ts+ev[i-1].Dur, ev[i].Ts+TimelineSlack, "track %v: %s overlaps %s", k, ev[i-1].Name, ev[i].Name)
		}
		if strings.Contains(named[k], " #") {
			extra++
		}
	}
	require.Positive(t, extra, "concurrent receive threads got tracks of their own")
}
