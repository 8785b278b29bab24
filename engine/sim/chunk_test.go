package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// chunkLine formats a downlink chunk as "name#chunk start-end".
func chunkLines(ss []Span) []string {
	var out []string
	for _, s := range ss {
		if s.Resource.Kind.IsLink() {
			out = append(out, fmt.Sprintf("%s#%d %g-%g", s.Name, s.Chunk, s.Start, s.End))
		}
	}
	return out
}

func fig12Trace() *stepBuilder {
	return newStep().op("A", "downlink", 5, 0).op("B", "downlink", 2, 0).
		op("C", "downlink", 7, 0).op("D", "downlink", 3, 0).op("E", "downlink", 4, 0)
}

// TestFig12ChunkRule is the icpe20-fig12 check with WIN = 3 and five
// streams ready at once: first services of min(s, WIN) in FIFO order, then
// the preempted streams' second services (s − WIN) in the order they were
// preempted.
func TestFig12ChunkRule(t *testing.T) {
	t.Parallel()
	ss, _, err := spans(traceOf(1, 3, fig12Trace().step()), Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Overhead: &Overhead{}})
	require.NoError(t, err)
	require.Equal(t, []string{
		"A#0 0-3", "B#0 3-5", "C#0 5-8", "D#0 8-11", "E#0 11-14",
		"A#1 14-16", "C#1 16-20", "E#1 20-21",
	}, chunkLines(ss))

	// Flow control off: one chunk per stream, in order.
	ss, _, err = spans(traceOf(1, 3, fig12Trace().step()), Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	require.Equal(t, []string{"A#0 0-5", "B#0 5-7", "C#0 7-14", "D#0 14-17", "E#0 17-21"}, chunkLines(ss))
}

// TestChunkRuleProperty: for random stream sizes, WIN and ready times, each
// stream gets min(s, WIN) at its first service and s − WIN at its second,
// never more than 2 chunks, and bytes are conserved.
func TestChunkRuleProperty(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	for iter := range 200 {
		win := int64(1 + r.IntN(8))
		b := newStep().op("root", "downlink", 1+int64(r.IntN(3)), 0)
		sizes := map[string]int64{}
		for i := range 1 + r.IntN(8) {
			g, d := fmt.Sprintf("g%d", i), fmt.Sprintf("s%d", i)
			b.op(g, "worker", 0, float64(r.IntN(5)), "root")
			sizes[d] = 1 + int64(r.IntN(20))
			b.op(d, "downlink", sizes[d], 0, g)
		}
		ss, _, err := spans(traceOf(1, win, b.step()), Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Overhead: &Overhead{}})
		require.NoError(t, err)
		chunks := map[string][]float64{}
		for _, s := range ss {
			if s.Resource.Kind.IsLink() && s.Name != "root" {
				require.Equal(t, len(chunks[s.Name]), s.Chunk, "iter %d", iter)
				chunks[s.Name] = append(chunks[s.Name], s.End-s.Start)
			}
		}
		for name, size := range sizes {
			c := chunks[name]
			if size <= win {
				require.Len(t, c, 1, "iter %d %s", iter, name)
				require.InDelta(t, float64(size), c[0], 1e-9)
				continue
			}
			require.Len(t, c, 2, "iter %d %s", iter, name)
			require.InDelta(t, float64(win), c[0], 1e-9)
			require.InDelta(t, float64(size-win), c[1], 1e-9)
		}
	}
}
