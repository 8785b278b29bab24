package cynthia

import "testing"

// BenchmarkPlan runs Algorithm 1 for the three §5.3 workloads over the
// assumed 4-type catalogue (paper: 19, 39 and 13 ms on an m4.xlarge).
func BenchmarkPlan(b *testing.B) {
	cases := planCases()
	cat := catalogue4()
	for _, name := range []string{"cifar10-BSP", "resnet32-BSP", "vgg19-ASP"} {
		pc := cases[name]
		b.Run(name, func(b *testing.B) {
			var p Planner
			b.ReportAllocs()
			evals := 0
			for b.Loop() {
				plan, err := p.Plan(pc.w, pc.loss, pc.goal, cat, cM4)
				if err != nil {
					b.Fatal(err)
				}
				evals = plan.Search.Evaluations
			}
			b.ReportMetric(float64(evals), "evals/op")
		})
	}
}

// BenchmarkPredictHomogeneous is the planner's inner-loop call.
func BenchmarkPredictHomogeneous(b *testing.B) {
	w := workload("vgg19")
	h := homog(m4(), 12, 1, cM4)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ModelCynthia.PredictHomogeneous(w, h); err != nil {
			b.Fatal(err)
		}
	}
}
