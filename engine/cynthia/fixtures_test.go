package cynthia

// Test inputs. Table 1 and Table 4 values are reported by the paper; every
// instance capability, bandwidth, price and loss coefficient below is an
// ASSUMPTION made for tests and benchmarks only (C-10: the paper gives
// none of them).

// cM4 is the assumed CPU capability of one m4.xlarge docker (one physical
// core of a Xeon E5-2686 v4), derived from Table 2 × Table 4 (CATALOGUE
// E.8): c_prof(mnist) = 1.13 GFLOP/s at 32.6% PS utilization gives
// 1.13/0.326 ≈ 3.47 GFLOP/s. It is also used as c_base (profiling was on
// m4.xlarge, Table 4 caption).
const cM4 = 3.47e9

// bPS110 is the PS bandwidth the paper reports as saturated for VGG-19
// (Fig. 7, "around 110 MB/s").
const bPS110 = 110e6

// workload returns a Table 4 row (reported) with Table 1's iteration count
// and batch size (reported), in SI units.
func workload(name string) Workload {
	switch name {
	case "resnet32":
		return Workload{Name: name, WIter: 39.87e9, GParam: 2.22e6, CProf: 0.12e9, BProf: 0.19e6, Sync: ASP, Iterations: 3000, Batch: 128}
	case "vgg19":
		return Workload{Name: name, WIter: 58.81e9, GParam: 135.84e6, CProf: 0.33e9, BProf: 13.49e6, Sync: ASP, Iterations: 1000, Batch: 128}
	case "cifar10":
		return Workload{Name: name, WIter: 26.86e9, GParam: 4.94e6, CProf: 0.06e9, BProf: 1.56e6, Sync: BSP, Iterations: 10000, Batch: 512}
	case "mnist":
		return Workload{Name: name, WIter: 0.04e9, GParam: 0.33e6, CProf: 1.13e9, BProf: 16.69e6, Sync: BSP, Iterations: 10000, Batch: 512}
	}
	panic("unknown workload " + name)
}

// m4 is an m4.xlarge docker: c from E.8, b from Fig. 7, and an assumed
// price of $0.10/h (half of an assumed $0.20/h m4.xlarge list price, two
// dockers per 2-core instance).
func m4() Instance { return Instance{Name: "m4.xlarge", CPU: cM4, Bandwidth: bPS110, Price: 0.10} }

// catalogue4 is an assumed 4-type catalogue of the types the paper names
// (§5.1). Capabilities are scaled from m4 by assumed clock ratios;
// bandwidths and per-docker prices are assumptions.
func catalogue4() []Instance {
	return []Instance{
		m4(),
		{Name: "m1.xlarge", CPU: 2.2e9, Bandwidth: 90e6, Price: 0.175},
		{Name: "c3.xlarge", CPU: 3.3e9, Bandwidth: 90e6, Price: 0.105},
		{Name: "r3.xlarge", CPU: 3.0e9, Bandwidth: 90e6, Price: 0.1665},
	}
}

// planCase is one §5.2/§5.3 planning scenario with assumed β0, β1 chosen
// so that s is of the order of Table 1's iteration counts.
type planCase struct {
	w    Workload
	loss Loss
	goal Goal
}

func planCases() map[string]planCase {
	resnetBSP := workload("resnet32")
	resnetBSP.Sync = BSP // §5.3 plans "ResNet-32 with BSP" (C-5)
	return map[string]planCase{
		// Fig. 11: loss 0.8, goal 120 min; s = 8000/0.8 = 10000 (Table 1).
		"cifar10-BSP": {workload("cifar10"), Loss{Beta0: 8000, Beta1: 0}, Goal{Time: 120 * 60, Loss: 0.8}},
		// Fig. 11: loss 0.6, goal 90 min; s = 1800/0.6 = 3000 (Table 1).
		"resnet32-BSP": {resnetBSP, Loss{Beta0: 1800, Beta1: 0}, Goal{Time: 90 * 60, Loss: 0.6}},
		// Fig. 13: loss 0.8, goal 30 min; β0 = 300, β1 = 20.
		"vgg19-ASP": {workload("vgg19"), Loss{Beta0: 300, Beta1: 20}, Goal{Time: 30 * 60, Loss: 0.8}},
	}
}
