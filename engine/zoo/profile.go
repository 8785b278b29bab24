package zoo

import (
	"fmt"
	"math"
)

// InputDescription is the module description of the PipeDream node that
// stands for the input batch. Its activation size gives the batch; its
// forward time is the profiler's data-loading time, not computation.
const InputDescription = "Input"

// Layer is one node of a per-layer profile.
type Layer struct {
	// Name is the node identifier, e.g. "node12" in PipeDream graphs or
	// "conv0" in the toy model. Names are unique within a profile.
	Name string
	// Description is the module description, e.g.
	// "Conv2d(3, 64, kernel_size=(11, 11), ...)" or "Input".
	Description string
	// Forward and Backward are the measured compute times of one step at
	// Profile.Batch, in seconds (PipeDream records milliseconds).
	Forward, Backward float64
	// ActivationBytes is the size of the layer's output for the whole
	// batch, in bytes.
	ActivationBytes int64
	// ParamBytes is the size of the layer's parameters (weights and biases),
	// in bytes; zero for layers without parameters.
	ParamBytes int64
	// Inputs are the indices (into Profile.Layers) of the layers whose
	// outputs this layer consumes, ascending. Every index is smaller than
	// the layer's own index: Layers is in topological order.
	Inputs []int
}

// IsInput reports whether the layer is the input-batch node.
func (l *Layer) IsInput() bool { return l.Description == InputDescription }

// Profile is a DNN's per-layer profile: layers in topological order with
// compute times measured at batch size Batch.
type Profile struct {
	// Model is the DNN name, e.g. "alexnet".
	Model string
	// Source names where the profile came from (the file name given to
	// Parse, or "toy").
	Source string
	// Batch is the number of examples per step the times were measured
	// with (examples).
	Batch int
	// InputSide is the square image side the batch was inferred with
	// (pixels; 224, 299 or 331), or 0 if the profile was not inferred from
	// an Input node.
	InputSide int
	// Layers are in topological order (every layer after its inputs).
	Layers []Layer
}

// ParamBytes returns the total parameter size of the model, in bytes.
func (p *Profile) ParamBytes() int64 {
	var s int64
	for i := range p.Layers {
		s += p.Layers[i].ParamBytes
	}
	return s
}

// ComputeSeconds returns the sum of forward and backward times of all
// layers except the Input node, in seconds at Profile.Batch: the serial
// compute time of one step.
func (p *Profile) ComputeSeconds() float64 {
	var s float64
	for i := range p.Layers {
		if l := &p.Layers[i]; !l.IsInput() {
			s += l.Forward + l.Backward
		}
	}
	return s
}

// Validate checks a profile built by hand or by Parse: a positive batch,
// unique non-empty layer names, finite non-negative times and sizes, and
// inputs that refer to earlier layers (topological order) without
// repetition. The error names the layer and the field.
func (p *Profile) Validate() error {
	if p.Batch <= 0 {
		return fmt.Errorf("zoo: profile %q: Batch %d, need > 0 examples", p.Model, p.Batch)
	}
	if len(p.Layers) == 0 {
		return fmt.Errorf("zoo: profile %q: no layers", p.Model)
	}
	seen := make(map[string]int, len(p.Layers))
	for i := range p.Layers {
		l := &p.Layers[i]
		if l.Name == "" {
			return fmt.Errorf("zoo: profile %q: layer %d: empty Name", p.Model, i)
		}
		if j, dup := seen[l.Name]; dup {
			return fmt.Errorf("zoo: profile %q: layer %d %q: duplicate of layer %d", p.Model, i, l.Name, j)
		}
		seen[l.Name] = i
		if err := checkSeconds("Forward", l.Forward); err != nil {
			return fmt.Errorf("zoo: profile %q: layer %q: %w", p.Model, l.Name, err)
		}
		if err := checkSeconds("Backward", l.Backward); err != nil {
			return fmt.Errorf("zoo: profile %q: layer %q: %w", p.Model, l.Name, err)
		}
		if l.ActivationBytes < 0 {
			return fmt.Errorf("zoo: profile %q: layer %q: negative ActivationBytes %d", p.Model, l.Name, l.ActivationBytes)
		}
		if l.ParamBytes < 0 {
			return fmt.Errorf("zoo: profile %q: layer %q: negative ParamBytes %d", p.Model, l.Name, l.ParamBytes)
		}
		prev := -1
		for _, in := range l.Inputs {
			if in < 0 || in >= i {
				return fmt.Errorf("zoo: profile %q: layer %d %q: input %d is not an earlier layer (layers must be in topological order)", p.Model, i, l.Name, in)
			}
			if in <= prev {
				return fmt.Errorf("zoo: profile %q: layer %q: Inputs not strictly ascending at %d", p.Model, l.Name, in)
			}
			prev = in
		}
	}
	return nil
}

func checkSeconds(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s is %v seconds", field, v)
	}
	if v < 0 {
		return fmt.Errorf("negative %s %v seconds", field, v)
	}
	return nil
}

// inputSides are the square image sides tried, in order, when inferring
// the batch from the Input node (pixels): 224 for the torchvision ImageNet
// models, 299 for Inception-v3, 331 for NASNet-A Large at its native size.
var inputSides = [...]int{224, 299, 331}

// bytesPerPixel is 3 channels of float32.
const bytesPerPixel = 3 * 4

// InferBatch returns the batch size and image side implied by the Input
// node's activation size: batch = activation / (3·side²·4 bytes), for the
// first side in 224, 299, 331 that divides the activation exactly. The
// candidate divisors 602112 (224), 1072812 (299) and 1314732 (331) bytes
// per example share no common multiple below 89401 examples, so at most
// one side fits any realistic batch.
func InferBatch(activationBytes int64) (batch, side int, err error) {
	if activationBytes <= 0 {
		return 0, 0, fmt.Errorf("zoo: Input activation %d bytes, need > 0", activationBytes)
	}
	for _, s := range inputSides {
		per := int64(bytesPerPixel * s * s)
		if activationBytes%per == 0 {
			return int(activationBytes / per), s, nil
		}
	}
	return 0, 0, fmt.Errorf("zoo: Input activation %d bytes is not a whole number of 3×224², 3×299² or 3×331² float32 images", activationBytes)
}

// OpLayers splits the layers the way a PS step uses them: compute lists,
// in topological order, every layer that becomes a worker operation (all
// but the Input node); params lists those of them with parameters, which
// become one downlink, one uplink and one update each; pos maps a layer
// index to its position in compute (-1 for the Input node).
func (p *Profile) OpLayers() (compute, params, pos []int) {
	pos = make([]int, len(p.Layers))
	for i := range p.Layers {
		pos[i] = -1
		if p.Layers[i].IsInput() {
			continue
		}
		pos[i] = len(compute)
		compute = append(compute, i)
		if p.Layers[i].ParamBytes > 0 {
			params = append(params, i)
		}
	}
	return compute, params, pos
}
