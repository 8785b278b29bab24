package kineto

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxShapeElems bounds the element count of one tensor shape in "Input
// Dims": 2^40 elements (4 TiB of float32), far above any real parameter
// tensor, so that parameter bytes stay exact in int64 (two dimensions of
// 10^11 used to overflow silently and give 40 bytes).
const maxShapeElems = 1 << 40

// checkDims validates raw "Input Dims" of an op whose shapes are read: a
// JSON list with one entry per input, each a shape (a list of whole
// numbers ≥ 0 whose product is at most maxShapeElems), a tensor list (a
// list of lists, not read) or another value (a non-tensor argument, not
// read). A string or any other non-list used to be ignored silently (0
// parameter bytes).
func checkDims(raw []byte) error {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("Input Dims %s: want a list of input shapes, e.g. [[32, 100], [10, 100], [10]]", clip(raw))
	}
next:
	for i, it := range items {
		var dims []json.RawMessage
		if json.Unmarshal(it, &dims) != nil {
			continue // not a tensor: a scalar or absent argument
		}
		n := 1.0
		for _, d := range dims {
			if len(d) > 0 && d[0] == '[' {
				continue next // a tensor list
			}
			x, err := strconv.ParseFloat(string(d), 64)
			if err != nil || x < 0 || x != math.Trunc(x) || math.IsInf(x, 0) {
				return fmt.Errorf("Input Dims: input %d shape %s: dimension %s is not a whole number ≥ 0", i, clip(it), clip(d))
			}
			n *= x
		}
		if n > maxShapeElems {
			return fmt.Errorf("Input Dims: input %d shape %s has %.3g elements, more than %d (2^40)", i, clip(it), n, int64(maxShapeElems))
		}
	}
	return nil
}

// clip is raw JSON for a message, cut at 80 bytes.
func clip(raw []byte) string {
	if len(raw) > 80 {
		return string(raw[:80]) + "…"
	}
	return string(raw)
}

// paramArgs gives, per parametric aten op, the positions of its
// parameter tensors among the op's inputs (PyTorch signatures:
// linear(input, weight, bias), addmm(bias, mat1, mat2, ...) with mat2 the
// transposed weight of nn.Linear, convolution(input, weight, bias, ...),
// layer_norm(input, normalized_shape, weight, bias, ...),
// group_norm(input, num_groups, weight, bias, ...), batch_norm(input,
// weight, bias, running_mean, running_var, ...), embedding(weight,
// indices), embedding_bag(weight, ...)).
var paramArgs = map[string][]int{
	"aten::linear": {1, 2}, "aten::addmm": {0, 2},
	"aten::conv1d": {1, 2}, "aten::conv2d": {1, 2}, "aten::conv3d": {1, 2}, "aten::convolution": {1, 2},
	"aten::layer_norm": {2, 3}, "aten::group_norm": {2, 3}, "aten::batch_norm": {1, 2},
	"aten::embedding": {0}, "aten::embedding_bag": {0},
}

// paramBytes returns the bytes of the parameter inputs of a parametric op
// from its raw "Input Dims" and "Input type"; 0 if they cannot be read.
func paramBytes(name, dims, types string) int64 {
	shapes := parseDims(dims)
	var tys []string
	_ = json.Unmarshal([]byte(types), &tys) // absent or malformed: default sizes
	var total int64
	for _, k := range paramArgs[name] {
		if k >= len(shapes) {
			continue
		}
		ty := ""
		if k < len(tys) {
			ty = tys[k]
		}
		total += numel(shapes[k]) * elemSize(ty)
	}
	return total
}

// parseDims reads "Input Dims", e.g. [[2048, 512], [], [160]]. Entries
// that are not flat lists of integers (tensor lists) become nil.
func parseDims(raw string) [][]int64 {
	var items []json.RawMessage
	if json.Unmarshal([]byte(raw), &items) != nil {
		return nil
	}
	out := make([][]int64, len(items))
	for i, it := range items {
		var d []int64
		if json.Unmarshal(it, &d) == nil {
			out[i] = d
		}
	}
	return out
}

// numel is the element count of a tensor shape; 0 for an empty shape (a
// scalar or absent argument, never a parameter) or a negative dimension.
func numel(shape []int64) int64 {
	if len(shape) == 0 {
		return 0
	}
	n := int64(1)
	for _, d := range shape {
		if d < 0 || (d > 0 && n > (1<<62)/d) {
			return 0
		}
		n *= d
	}
	return n
}

// firstNumel is the element count of the first input of raw Input Dims.
func firstNumel(raw []byte) int64 {
	shapes := parseDims(string(raw))
	if len(shapes) == 0 {
		return 0
	}
	return numel(shapes[0])
}

// elemSize is the size in bytes of one element of a PyTorch dtype as
// Kineto names it ("float", "c10::Half", "long"...); 4 when unknown.
func elemSize(ty string) int64 {
	switch strings.TrimPrefix(ty, "c10::") {
	case "double", "long", "int64_t", "c10::complex<float>", "complex<float>":
		return 8
	case "Half", "BFloat16", "short":
		return 2
	case "bool", "signed char", "unsigned char", "char", "Float8_e4m3fn", "Float8_e5m2":
		return 1
	}
	return 4
}

// leadDim returns the first dimension of the first input in raw Input
// Dims ("[[2048, 512], ...]" gives 2048), or 0.
func leadDim(raw []byte) int64 {
	i := 0
	for k := 0; k < 2; k++ {
		for i < len(raw) && raw[i] == ' ' {
			i++
		}
		if i >= len(raw) || raw[i] != '[' {
			return 0
		}
		i++
	}
	for i < len(raw) && raw[i] == ' ' {
		i++
	}
	var n int64
	start := i
	for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' && i-start < 15 {
		n = n*10 + int64(raw[i]-'0')
		i++
	}
	return n
}
