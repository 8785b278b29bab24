package collection

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/training"
	"pslab/engine/zoo"
)

// fakeOutcome is an outcome built without running anything: the toy
// model of icpe20 Fig. 5 at 30 kB on a 200 Mbit/s loopback.
func fakeOutcome(t *testing.T) *Outcome {
	c := config.Config{Name: "smoke", Model: "toy", DeviceSpeed: 20, BytesScale: 0.001, BandwidthMbit: 200,
		Servers: 1, Sync: training.ASP, Transport: training.Multiplexed, Order: training.OrderDefault, Seed: 1, Window: 65536, ConnWindow: 65536,
		Workers: []int{1, 2}, Repetitions: 2, Steps: 2, Average: 1, ProfileSteps: 5, PhaseSkip: 1}
	j := c.Job(".", 1)
	p, err := j.LoadPlan()
	require.NoError(t, err)
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 2, Bandwidth: 1e8})
	require.NoError(t, err)
	tr.Meta.Alpha, tr.Meta.Beta = 1e-9, 1e-5
	run := func(w, rep int) Run {
		r := Run{Workers: w, Repetition: rep, Wall: 2 * time.Second, Throughput: float64(10*w + 2*rep)}
		for range w {
			r.Steps = append(r.Steps, analysis.StepTimes{Start: []int64{100, 200}, End: []int64{200, 300}})
		}
		return r
	}
	return &Outcome{Config: c, Plan: p, Network: network.Loopback, Trace: tr, Window: 65536, ConnWindow: 65536,
		Phases: analysis.Phases{SD: 1, SW: 2, SU: 3, SS: 4, Steps: 1}, Overhead: analysis.Overhead{Alpha: 1e-9, Beta: 1e-5, Samples: 8},
		Profile: run(1, 0), Runs: []Run{run(1, 0), run(1, 1), run(2, 0), run(2, 1)},
		Points: []Point{{Workers: 1, Rates: []float64{10, 12}, Mean: 11, Std: 1.4}, {Workers: 2, Rates: []float64{20, 22}, Mean: 21, Std: 1.4}},
		Load:   [2]string{"1.0 1.0 1.0", "2.0 2.0 2.0"}, Nice: -10, Elapsed: 3 * time.Second}
}

func TestTablesCarryProvenanceAndScaleFactors(t *testing.T) {
	t.Parallel()
	o := fakeOutcome(t)
	tabs, err := o.Tables(Host{Kernel: "6.1.0", CPU: "Xeon", Date: "2026-01-02T03:04:05Z", Command: "pslab testbed run -only smoke"})
	require.NoError(t, err)
	require.Len(t, tabs, 8) // trace, throughput, phases, runs, steps, accounting, points, modes
	for name, tab := range tabs {
		p := tab.Provenance
		require.Equal(t, dataset.Measured, p.Origin, name)
		require.Equal(t, "pslab testbed run -only smoke", p.Command, name)
		for k, v := range map[string]string{
			"testbed.kernel": "6.1.0", "testbed.cpu": "Xeon", "testbed.date": "2026-01-02T03:04:05Z",
			"testbed.bandwidth_mbit": "200", "testbed.bandwidth_bps": "2.5e+07",
			"testbed.bytes_scale": "0.001", "testbed.device_speed": "20", "testbed.compute_scale": "0.05",
			"testbed.network": network.Loopback, "testbed.window_wire": "65536", "testbed.nice": "-10",
			"testbed.transport": training.Multiplexed, "testbed.sync": training.ASP, "testbed.model_bytes": "30000",
		} {
			require.Equal(t, v, p.Extra[k], "%s: %s", name, k)
		}
		require.NoError(t, tab.Validate(), name)
	}
	m := tabs[ThroughputFile]
	require.Equal(t, []int64{1, 2}, m.Ints("workers"))
	require.Equal(t, []float64{11, 21}, m.Floats("throughput"))
	require.Equal(t, []int64{1, 1}, m.Ints("steps"), "steps averaged over")
	require.Equal(t, []int64{65536, 65536}, m.Ints("window"))
	ph := tabs[PhasesFile]
	require.Equal(t, []float64{2}, ph.Floats("s_w"))
	require.Equal(t, []float64{1}, ph.Floats("s_d"))
	runs := tabs[RunsFile]
	require.Equal(t, []float64{10, 12, 20, 22}, runs.Floats("throughput"))
	st := tabs[StepsFile]
	require.Equal(t, 2*(1+1+1+2+2), st.Len(), "profile + 4 runs, 2 steps per worker")
	require.Equal(t, []int64{0, 100}, st.Ints("start_ns")[:2], "from the run's first start")
	tt := tabs[TraceFile]
	require.Equal(t, "1e-09", tt.Provenance.Extra["overhead_alpha_s_per_byte"])
}

func TestOrderedRowsRecordWindowZeroAndOrder(t *testing.T) {
	t.Parallel()
	o := fakeOutcome(t)
	o.Config.Transport, o.Config.Order = training.Ordered, training.OrderReverse
	tabs, err := o.Tables(Host{})
	require.NoError(t, err)
	m := tabs[ThroughputFile]
	require.Equal(t, []int64{0, 0}, m.Ints("window"), "flow control off")
	require.Equal(t, []string{training.OrderReverse, training.OrderReverse}, m.Strings("order"))
}

func TestWriteDirReplacesAtomically(t *testing.T) {
	t.Parallel()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	tabs, err := fakeOutcome(t).Tables(Host{})
	require.NoError(t, err)
	root := t.TempDir()
	dir := filepath.Join(root, "cfg")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stale.arrow"), []byte("old"), 0o644))
	require.NoError(t, WriteDir(dir, tabs, map[string][]byte{TimelineFile: []byte("{}")}, mem))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.ElementsMatch(t, []string{TraceFile, ThroughputFile, PhasesFile, RunsFile, StepsFile, AccountingFile, PointsFile, ModesFile, TimelineFile}, names, "the old set is replaced as a whole")
	top, _ := os.ReadDir(root)
	require.Len(t, top, 1, "no temporary directories left")
	// an invalid table makes WriteDir fail before touching dir
	bad := dataset.NewTable(dataset.PhasesSchema, dataset.Provenance{})
	require.NoError(t, bad.Append("x", 1, -1.0, 0.0, 0.0, 0.0, dataset.Measured))
	require.Error(t, WriteDir(filepath.Join(root, "bad"), map[string]*dataset.Table{PhasesFile: bad}, nil, mem))
	_, err = os.Stat(filepath.Join(root, "bad"))
	require.True(t, os.IsNotExist(err))
}

// A write that fails after the temporary directory was made (here: a file
// name too long for the file system) keeps the old set and leaves no
// temporary directory or lock behind; the temporary directory of a writer
// that was killed mid-write is removed by the next WriteDir.
func TestWriteDirFailureLeavesNothingBehind(t *testing.T) {
	t.Parallel()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	root := t.TempDir()
	dir := filepath.Join(root, "cfg")
	require.NoError(t, WriteDir(dir, nil, map[string][]byte{TimelineFile: []byte("old")}, mem))
	long := strings.Repeat("x", 300)
	err := WriteDir(dir, nil, map[string][]byte{TimelineFile: []byte("new"), long: []byte("y")}, mem)
	require.Error(t, err)
	top, _ := os.ReadDir(root)
	require.Len(t, top, 1, "no temporary directory or lock file left: %v", top)
	b, err := os.ReadFile(filepath.Join(dir, TimelineFile))
	require.NoError(t, err)
	require.Equal(t, "old", string(b), "the old set is kept")

	// a writer killed mid-write left its temporary directory (and its
	// lock file, no longer locked)
	stale := filepath.Join(root, ".cfg.tmp-123")
	require.NoError(t, os.MkdirAll(stale, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(stale, TraceFile), []byte("partial"), 0o644))
	require.NoError(t, os.WriteFile(stale+".lock", nil, 0o644))
	require.NoError(t, WriteDir(dir, nil, map[string][]byte{TimelineFile: []byte("new")}, mem))
	top, _ = os.ReadDir(root)
	require.Len(t, top, 1, "the killed writer's leftovers are removed: %v", top)
	b, err = os.ReadFile(filepath.Join(dir, TimelineFile))
	require.NoError(t, err)
	require.Equal(t, "new", string(b))
}
