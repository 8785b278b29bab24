package syncps

import (
	"fmt"
	"math"
)

// Layer is one DNN layer of a per-layer profile (for example a PipeDream
// profile supplied by the zoo package). A model is a []Layer in forward order:
// index 0 is the input-side layer, index len-1 the output-side layer; the
// backward pass and the layer pipeline (Eq. 3–6) visit the layers in reverse.
type Layer struct {
	// Name identifies the layer in error messages and traces.
	Name string
	// ParamBytes is the size of the layer's gradient in bytes: what one worker
	// sends to the parameter servers per iteration for this layer (and receives
	// back). Layers without parameters (ReLU, pooling) have 0 and cause no
	// communication.
	ParamBytes int64
	// Forward is the layer's forward-propagation time per iteration on the
	// profiled device, in seconds.
	Forward float64
	// Backward is the layer's backward-propagation time per iteration on the
	// profiled device, in seconds.
	Backward float64
}

// validate reports the first invalid field of layer i.
func (l Layer) validate(i int) error {
	if l.ParamBytes < 0 {
		return fmt.Errorf("syncps: layer %d %q: negative ParamBytes %d", i, l.Name, l.ParamBytes)
	}
	if err := checkNonNegative("Forward", l.Forward); err != nil {
		return fmt.Errorf("syncps: layer %d %q: %w", i, l.Name, err)
	}
	if err := checkNonNegative("Backward", l.Backward); err != nil {
		return fmt.Errorf("syncps: layer %d %q: %w", i, l.Name, err)
	}
	return nil
}

// checkNonNegative returns an error naming field unless v is finite and ≥ 0.
func checkNonNegative(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s must be finite and ≥ 0, got %g", field, v)
	}
	return nil
}

// checkPositive returns an error naming field unless v is finite and > 0.
func checkPositive(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("%s must be finite and > 0, got %g", field, v)
	}
	return nil
}
