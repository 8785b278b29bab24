package zoo

// Toy returns the 4-layer DNN of icpe20 Fig. 5 (conv0 → conv1 → fc0 → fc1)
// as a profile at batch 32. The paper gives no sizes or times; these are
// assumed, round numbers chosen so that hand-computed schedules are easy
// and the shape is typical (convolutions dominate compute, fully connected
// layers dominate parameters, fc0 is the largest tensor):
//
//	layer  params (bytes)  forward (s)  backward (s)  activation (bytes)
//	conv0       2 000 000        0.010         0.020           8 388 608
//	conv1       4 000 000        0.020         0.040           4 194 304
//	fc0        16 000 000        0.005         0.010             131 072
//	fc1         8 000 000        0.002         0.004               1 280
//
// Total parameters 30 000 000 bytes. The profile has no Input node
// (InputSide 0): its batch is given, not inferred.
func Toy() *Profile {
	return &Profile{
		Model:  "toy-fig5",
		Source: "icpe20 Fig. 5 toy (assumed sizes and times)",
		Batch:  32,
		Layers: []Layer{
			{Name: "conv0", Description: "Conv2d(3, 64)", Forward: 0.010, Backward: 0.020, ActivationBytes: 8388608, ParamBytes: 2000000},
			{Name: "conv1", Description: "Conv2d(64, 128)", Forward: 0.020, Backward: 0.040, ActivationBytes: 4194304, ParamBytes: 4000000, Inputs: []int{0}},
			{Name: "fc0", Description: "Linear(32768, 1024)", Forward: 0.005, Backward: 0.010, ActivationBytes: 131072, ParamBytes: 16000000, Inputs: []int{1}},
			{Name: "fc1", Description: "Linear(1024, 10)", Forward: 0.002, Backward: 0.004, ActivationBytes: 1280, ParamBytes: 8000000, Inputs: []int{2}},
		},
	}
}
