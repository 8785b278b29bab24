package experiment

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// tomlFloat writes v as a TOML float (nan, inf, -inf included).
func tomlFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'e', -1, 64)
}

// FuzzSweepPoints: no sweep, whatever its from, to and step (NaN, ±Inf,
// 1e-300, ±1.7e308), panics, loops or allocates more than MaxSweepPoints
// points; Len and Points agree; Parse accepts exactly the sweeps Len
// accepts (a workers sweep may also be refused by the worker limit), and
// its errors name the file. Seeds: testdata/fuzz/FuzzSweepPoints and below.
func FuzzSweepPoints(f *testing.F) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, s := range [][3]float64{
		{1, 16, 0}, {nan, 16, 0}, {1, 16, nan}, {1, 16, 1e-300}, {1, inf, 0}, {-inf, 1, 0}, {-5, 16, 1},
		{1e300, 1e300, 0}, {1e300, 1.0000001e300, 0}, {-1.7e308, 1.7e308, 1}, {0.1, 0.3, 0.1},
		{1, MaxSweepPoints, 1}, {1, MaxSweepPoints + 1, 1}, {0, 1, -1}, {3, 1, 0}, {1, 1 + 1e-12, 1e-13},
	} {
		f.Add(s[0], s[1], s[2], false)
		f.Add(s[0], s[1], s[2], true)
	}
	const file = "experiments/beyond/toy.toml"
	f.Fuzz(func(t *testing.T, from, to, step float64, workers bool) {
		sw := Sweep{Var: "x", From: from, To: to, Step: step}
		if workers {
			sw.Var = "workers"
		}
		n, lenErr := sw.Len()
		pts := sw.Points()
		switch {
		case lenErr != nil && pts != nil:
			t.Fatalf("%+v: Len refuses (%v) but Points returns %d points", sw, lenErr, len(pts))
		case lenErr != nil && !strings.HasPrefix(lenErr.Error(), "sweep"):
			t.Fatalf("%+v: error does not name the sweep key: %v", sw, lenErr)
		case lenErr == nil && (len(pts) != n || n < 1 || n > MaxSweepPoints):
			t.Fatalf("%+v: Len %d, %d points (limit %d)", sw, n, len(pts), MaxSweepPoints)
		}
		for i, x := range pts {
			if math.IsNaN(x) || math.IsInf(x, 0) || (i > 0 && x < pts[i-1]) {
				t.Fatalf("%+v: point %d = %v after %v", sw, i, x, pts[max(i-1, 0)])
			}
		}

		spec := strings.Replace(goodSpec, "var = \"x\"\nfrom = 1\nto = 3\n",
			"var = \""+sw.Var+"\"\nfrom = "+tomlFloat(from)+"\nto = "+tomlFloat(to)+"\nstep = "+tomlFloat(step)+"\n", 1)
		s, err := Parse(file, []byte(spec))
		if err != nil {
			if !strings.HasPrefix(err.Error(), file+":") {
				t.Fatalf("error does not name the file: %v", err)
			}
			if lenErr == nil && !workers {
				t.Fatalf("%+v: Len accepts, Parse refuses: %v", sw, err)
			}
			if lenErr != nil && !strings.Contains(err.Error(), lenErr.Error()) && !workers {
				t.Fatalf("%+v: Parse says %v, Len %v", sw, err, lenErr)
			}
			return
		}
		if lenErr != nil {
			t.Fatalf("%+v: Parse accepts, Len refuses: %v", sw, lenErr)
		}
		if got := s.Sweep.Points(); len(got) != n {
			t.Fatalf("%+v: parsed sweep has %d points, want %d", sw, len(got), n)
		}
	})
}
