package syncps

import "fmt"

// Zoo-like per-layer profiles for tests, until the zoo package supplies
// measured PipeDream profiles. Parameter counts are those of the torchvision
// models (FP32 gradients, 4 bytes per parameter; ResNet-50's batch-norm
// scale and shift are folded into the preceding convolution). Layer times
// are DERIVED, not measured: forward = 2·MACs·batch/throughput and
// backward = 2·forward, with an assumed batch of 32 and an assumed effective
// 10 TFLOP/s (an RTX 3090-class GPU at roughly 30% of its FP32 peak).
// Parameter-free pooling layers are memory-bound: 8 bytes per activation
// (read + write, FP32) at an assumed 500 GB/s.
const (
	profileBatch      = 32
	profileThroughput = 10e12 // FLOP/s, assumed
	profileMemory     = 500e9 // bytes/s, assumed
)

func convLayer(name string, cin, cout, k, hout int, bias bool) Layer {
	params := cout * cin * k * k
	if bias {
		params += cout
	} else {
		params += 2 * cout // batch norm γ, β
	}
	macs := float64(cout*cin*k*k) * float64(hout*hout)
	return computeLayer(name, int64(params), macs)
}

func fcLayer(name string, in, out int) Layer {
	return computeLayer(name, int64(in*out+out), float64(in*out))
}

func computeLayer(name string, params int64, macs float64) Layer {
	fwd := 2 * macs * profileBatch / profileThroughput
	return Layer{Name: name, ParamBytes: 4 * params, Forward: fwd, Backward: 2 * fwd}
}

func poolLayer(name string, c, hout int) Layer {
	fwd := 8 * float64(c*hout*hout) * profileBatch / profileMemory
	return Layer{Name: name, Forward: fwd, Backward: fwd}
}

// alexNetLike is torchvision AlexNet: 61.1 M parameters, 0.71 GMAC/image.
func alexNetLike() []Layer {
	return []Layer{
		convLayer("conv1", 3, 64, 11, 55, true),
		poolLayer("pool1", 64, 27),
		convLayer("conv2", 64, 192, 5, 27, true),
		poolLayer("pool2", 192, 13),
		convLayer("conv3", 192, 384, 3, 13, true),
		convLayer("conv4", 384, 256, 3, 13, true),
		convLayer("conv5", 256, 256, 3, 13, true),
		poolLayer("pool5", 256, 6),
		fcLayer("fc6", 256*6*6, 4096),
		fcLayer("fc7", 4096, 4096),
		fcLayer("fc8", 4096, 1000),
	}
}

// resNet50Like is torchvision ResNet-50 (v1.5: stride on the 3×3
// convolution): 25.5 M parameters, 4.1 GMAC/image, 55 layers.
func resNet50Like() []Layer {
	layers := []Layer{convLayer("conv1", 3, 64, 7, 112, false), poolLayer("pool1", 64, 56)}
	in, res := 64, 56
	for s, stage := range []struct{ blocks, width, res int }{{3, 64, 56}, {4, 128, 28}, {6, 256, 14}, {3, 512, 7}} {
		for b := range stage.blocks {
			name := fmt.Sprintf("layer%d.%d", s+1, b)
			w, out := stage.width, 4*stage.width
			layers = append(layers,
				convLayer(name+".conv1", in, w, 1, res, false),
				convLayer(name+".conv2", w, w, 3, stage.res, false),
				convLayer(name+".conv3", w, out, 1, stage.res, false))
			if b == 0 {
				layers = append(layers, convLayer(name+".downsample", in, out, 1, stage.res, false))
			}
			in, res = out, stage.res
		}
	}
	return append(layers, fcLayer("fc", 2048, 1000))
}
