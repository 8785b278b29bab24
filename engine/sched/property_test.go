package sched

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomCurve is a concave-ish, possibly non-monotone throughput curve with
// X(1) = X(2) (M-4).
func randomCurve(rng *rand.Rand, W int) []float64 {
	x := make([]float64, W+1)
	x[1] = 0.5 + rng.Float64()
	x[2] = x[1]
	for w := 3; w <= W; w++ {
		step := x[1] * rng.Float64() * math.Pow(0.8, float64(w))
		if rng.IntN(8) == 0 {
			step = -0.1 * x[w-1] * rng.Float64()
		}
		x[w] = x[w-1] + step
	}
	return x
}

// HELL's argmin of S(w)/E(w) with E(w) = S(1)/[w·S(w)] (Alg. 2 literally)
// equals argmin w·S(w)²/S(1) and the tabulated c·w·X(1)/X(w)².
func TestHELLArgminEquivalence(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		W := 2 + rng.IntN(40)
		x := randomCurve(rng, W)
		cv := newCurve(x)
		J := 1 + 1e6*rng.Float64()
		S := func(w int) float64 { return J / x[w] }
		for b := 1; b <= W; b++ {
			lit, sq := 1, 1
			litV, sqV := math.Inf(1), math.Inf(1)
			for w := 1; w <= b; w++ {
				E := S(1) / (float64(w) * S(w))
				if v := S(w) / E; v < litV*(1-1e-12) {
					lit, litV = w, v
				}
				if v := float64(w) * S(w) * S(w) / S(1); v < sqV*(1-1e-12) {
					sq, sqV = w, v
				}
			}
			require.Equal(t, lit, sq, "trial %d b %d", trial, b)
			require.Equal(t, lit, cv.hellW[b], "trial %d b %d", trial, b)
			require.InDelta(t, litV, J*cv.hellH[b], 1e-9*litV)
		}
	}
}

// The knee from the table equals a direct scan of the M-1/M-2 rule.
func TestKneeTableMatchesScan(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		W := 2 + rng.IntN(40)
		x := randomCurve(rng, W)
		alpha := 0.005 + 0.3*rng.Float64()
		cv := newCurve(x)
		knee := cv.kneeTable(alpha)
		for b := 1; b <= W; b++ {
			// Candidates within budget b, then first admissible knee.
			cand := []int{1}
			for w := 2; w <= b; w++ {
				if x[w] > x[cand[len(cand)-1]] {
					cand = append(cand, w)
				}
			}
			want := cand[len(cand)-1]
			for j := 0; j+1 < len(cand); j++ {
				if (x[cand[j+1]]-x[cand[j]])/x[cand[j+1]] < alpha {
					want = cand[j]
					break
				}
			}
			require.Equal(t, want, knee[b], "trial %d b %d", trial, b)
		}
	}
}

// Every policy allocates at most W nodes, never negative; moldable policies
// give each job 0 or its fixed size; malleable HELL/KNEE give every job a
// node whenever a node is idle.
func TestAllocationInvariants(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 100; trial++ {
		W := 1 + rng.IntN(30)
		env := Env{Nodes: W, Load: rng.Float64()}
		for k := 0; k < 1+rng.IntN(4); k++ {
			env.Types = append(env.Types, JobType{X: randomCurve(rng, max(W, 2))[:W+1]})
		}
		jobs := make([]JobState, rng.IntN(2*W+2))
		for i := range jobs {
			size := 1 + 100*rng.Float64()
			jobs[i] = JobState{ID: i, Type: rng.IntN(len(env.Types)), Size: size, Remaining: size * (0.01 + 0.99*rng.Float64())}
		}
		for _, p := range []Policy{HELL{}, HELL{Gamma: 1.05}, KNEE{}, SRPT{}, Waterfill{}, Waterfill{FillEq5: true},
			JSQChunk{Chunk: 1 + rng.IntN(W)}, MoldableHELL{}, MoldableKNEE{}} {
			alloc := allocate(t, p, env, jobs)
			sum := 0
			for _, w := range alloc {
				require.GreaterOrEqual(t, w, 0, p.Name())
				sum += w
			}
			require.LessOrEqual(t, sum, W, p.Name())
			switch p.(type) {
			case MoldableHELL, MoldableKNEE:
				r := hellRule(newCurves(env))
				if _, ok := p.(MoldableKNEE); ok {
					r = kneeRule(newCurves(env), p.(MoldableKNEE).Alpha(env.Load))
				}
				for i, w := range alloc {
					require.Contains(t, []int{0, r.w[jobs[i].Type][W]}, w, p.Name())
				}
			case HELL, KNEE:
				if sum < W {
					for _, w := range alloc {
						require.Positive(t, w, p.Name())
					}
				}
			}
		}
	}
}
