package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// TimelineSlack is how far, µs, one complete event may run past the start
// of the next on the same track and still count as not overlapping: the
// Chrome export rounds ts and dur to 1 ns separately.
const TimelineSlack = 0.002

// Timeline writes the Chrome/Perfetto trace (Trace Event Format JSON) of
// one simulated configuration, W = workers nodes of cluster c, to out: the
// export of sim.Config.Timeline (one process per worker, one thread per
// resource, an "X" event per chunk, ts and dur in µs), with every thread
// split into as many tracks as it has concurrent events (receive-thread
// overheads overlap, TensorFlow running them on several receive threads):
// an event that overlaps one already placed on its thread goes to the
// first extra track "<thread> #k" that is free, so no two complete events
// on one (pid, tid) overlap by more than TimelineSlack. p is the per-layer
// profile (RunProfile's node trace) or nil for the recorded trace tr.
func Timeline(out io.Writer, p *zoo.Profile, tr *trace.Trace, c Cluster, workers int) error {
	if workers < 1 {
		return fmt.Errorf("predict: timeline: %d workers, need ≥ 1", workers)
	}
	if p != nil {
		var err error
		if tr, c, _, err = c.nodeTrace(p, workers); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	cfg := c.simConfig()
	cfg.Workers, cfg.Timeline = workers, &buf
	if _, err := sim.Run(tr, cfg); err != nil {
		return fmt.Errorf("predict: timeline: %w", err)
	}
	return splitTracks(buf.Bytes(), out)
}

// chromeEvent is one Trace Event Format event, as sim writes them.
type chromeEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat,omitempty"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur,omitempty"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args,omitempty"`
}

type chromeTrace struct {
	DisplayTimeUnit string        `json:"displayTimeUnit"`
	TraceEvents     []chromeEvent `json:"traceEvents"`
}

// splitTracks re-writes a Chrome trace so that no two "X" events on one
// (pid, tid) overlap (see Timeline).
func splitTracks(in []byte, out io.Writer) error {
	var t chromeTrace
	if err := json.Unmarshal(in, &t); err != nil {
		return fmt.Errorf("predict: timeline: %w", err)
	}
	type track struct{ pid, tid int }
	names := map[track]string{}
	next := 0 // first free tid
	var byTrack = map[track][]int{}
	for i, e := range t.TraceEvents {
		next = max(next, e.Tid+1)
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				var a struct{ Name string }
				if json.Unmarshal(e.Args, &a) == nil {
					names[track{e.Pid, e.Tid}] = a.Name
				}
			}
		case "X":
			k := track{e.Pid, e.Tid}
			byTrack[k] = append(byTrack[k], i)
		}
	}
	keys := make([]track, 0, len(byTrack))
	for k := range byTrack {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		return keys[a].pid < keys[b].pid || keys[a].pid == keys[b].pid && keys[a].tid < keys[b].tid
	})
	var metas []chromeEvent
	for _, k := range keys {
		ev := byTrack[k]
		sort.SliceStable(ev, func(a, b int) bool { return t.TraceEvents[ev[a]].Ts < t.TraceEvents[ev[b]].Ts })
		var ends []float64 // per lane, the end of its last event
		var tids []int
		for _, i := range ev {
			e := &t.TraceEvents[i]
			lane := -1
			for l, end := range ends {
				if end <= e.Ts+TimelineSlack {
					lane = l
					break
				}
			}
			if lane < 0 {
				lane = len(ends)
				ends = append(ends, 0)
				tid := k.tid
				if lane > 0 {
					tid, next = next, next+1
					args, _ := json.Marshal(map[string]string{"name": fmt.Sprintf("%s #%d", names[k], lane)})
					metas = append(metas, chromeEvent{Name: "thread_name", Ph: "M", Pid: k.pid, Tid: tid, Args: args})
				}
				tids = append(tids, tid)
			}
			ends[lane] = e.Ts + e.Dur
			e.Tid = tids[lane]
		}
	}
	t.TraceEvents = append(metas, t.TraceEvents...)
	enc := json.NewEncoder(out)
	return enc.Encode(t)
}
