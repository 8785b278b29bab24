package experiment

import (
	"math"
	"strings"
)

// PositiveList checks that every value of the params list key is a
// positive finite number; the error names the key.
func (e *Env) PositiveList(key string, vs []float64) error {
	if len(vs) == 0 {
		return e.Errorf(key, "%s is empty", key)
	}
	for _, v := range vs {
		if !(v > 0) || math.IsInf(v, 0) {
			return e.Errorf(key, "%s: %v is not a positive number", key, v)
		}
	}
	return nil
}

// AscendingList checks that the params list key holds positive finite
// numbers in strictly ascending order.
func (e *Env) AscendingList(key string, vs []float64) error {
	if err := e.PositiveList(key, vs); err != nil {
		return err
	}
	for i := 1; i < len(vs); i++ {
		if vs[i] <= vs[i-1] {
			return e.Errorf(key, "%s must be strictly ascending: %v after %v", key, vs[i], vs[i-1])
		}
	}
	return nil
}

// MetricKey turns a label into a metric-name component ("ResNet 50" →
// "resnet_50").
func MetricKey(label string) string {
	return strings.ToLower(strings.ReplaceAll(label, " ", "_"))
}
