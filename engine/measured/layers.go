package measured

import (
	"fmt"
	"strconv"

	"pslab/engine/syncps"
	"pslab/engine/testbed/training"
	"pslab/engine/zoo"
)

// SyncPSLayers maps the per-layer profile pr onto a testbed job the way
// the testbed's plan does (training.NewPlan): the Input layer is left out
// (its time is PipeDream's data loader, not emulated), each layer's
// parameter bytes become training.ScaledBytes(bytes, bytesScale) (whole
// float32 values, at least one) and its forward and backward times are
// scaled by batch/pr.Batch and divided by deviceSpeed. The result is in
// testbed units: bytes on the wire and seconds of emulated compute.
func SyncPSLayers(pr *zoo.Profile, batch int, bytesScale, deviceSpeed float64) ([]syncps.Layer, error) {
	if pr.Batch < 1 || batch < 1 || !(bytesScale > 0) || !(deviceSpeed > 0) {
		return nil, fmt.Errorf("profile batch %d, batch %d, bytes scale %v, device speed %v: need ≥ 1, ≥ 1, > 0, > 0", pr.Batch, batch, bytesScale, deviceSpeed)
	}
	scale := float64(batch) / float64(pr.Batch) / deviceSpeed
	var out []syncps.Layer
	for _, l := range pr.Layers {
		if l.IsInput() {
			continue
		}
		var b int64
		if l.ParamBytes > 0 {
			b = training.ScaledBytes(l.ParamBytes, bytesScale)
		}
		out = append(out, syncps.Layer{Name: l.Name, ParamBytes: b, Forward: l.Forward * scale, Backward: l.Backward * scale})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("profile %q has no layers besides the input", pr.Model)
	}
	return out, nil
}

// CheckBytes requires the mapped layers to carry the bytes the testbed
// sent (metadata testbed.model_bytes), so the mapping is the testbed's.
func CheckBytes(c *Config, layers []syncps.Layer) error {
	want, err := strconv.ParseInt(c.MeasTable.Provenance.Extra["testbed.model_bytes"], 10, 64)
	if err != nil {
		return fmt.Errorf("throughput.arrow metadata testbed.model_bytes: %w", err)
	}
	var got int64
	for _, l := range layers {
		got += l.ParamBytes
	}
	if got != want {
		return fmt.Errorf("zhang: the profile's scaled parameters are %d bytes, the testbed sent %d (testbed.model_bytes): not the profile the testbed ran", got, want)
	}
	return nil
}
