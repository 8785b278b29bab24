package zoo

import (
	"fmt"
	"strconv"

	"pslab/engine/dataset"
)

// ProfileSchema is a per-layer profile as a dataset: one row per layer, in
// topological order (Profile.Layers order), as written by ProfileTable.
// Every row repeats the model and batch so that a file is self-describing
// when concatenated with others.
var ProfileSchema = &dataset.Schema{Name: "layer_profile", Columns: []dataset.Column{
	{Name: "model", Type: dataset.String, Doc: "DNN name"},
	{Name: "layer", Type: dataset.String, Doc: "layer identifier, unique within the model"},
	{Name: "description", Type: dataset.String, Doc: "module description, e.g. Conv2d(3, 64, ...); Input for the input batch"},
	{Name: "forward_s", Type: dataset.Float64, Unit: "s", Rule: dataset.NonNegative, Doc: "forward compute time of one step at the batch size"},
	{Name: "backward_s", Type: dataset.Float64, Unit: "s", Rule: dataset.NonNegative, Doc: "backward compute time of one step at the batch size"},
	{Name: "activation_bytes", Type: dataset.Int64, Unit: "bytes", Rule: dataset.NonNegative, Doc: "size of the layer's output for the whole batch"},
	{Name: "param_bytes", Type: dataset.Int64, Unit: "bytes", Rule: dataset.NonNegative, Doc: "size of the layer's parameters (weights and biases)"},
	{Name: "inputs", Type: dataset.Int32List, Rule: dataset.NonNegative, Doc: "row indices of the layers whose outputs this layer consumes"},
	{Name: "batch", Type: dataset.Int64, Unit: "examples", Rule: dataset.Positive, Doc: "examples per step the times were measured with"},
}}

// metaInputSide is the provenance key of Profile.InputSide.
const metaInputSide = "input_side_px"

// ProfileTable converts a validated profile to a table of ProfileSchema
// with provenance prov. Profile.InputSide goes into the provenance as
// "input_side_px" and, when prov.Source is empty, Profile.Source becomes
// the source. The profile is validated first; an invalid profile returns
// Validate's error.
func ProfileTable(p *Profile, prov dataset.Provenance) (*dataset.Table, error) {
	if p == nil {
		return nil, fmt.Errorf("zoo: ProfileTable: nil profile")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	extra := make(map[string]string, len(prov.Extra)+1)
	for k, v := range prov.Extra {
		extra[k] = v
	}
	if p.InputSide > 0 {
		extra[metaInputSide] = strconv.Itoa(p.InputSide)
	}
	prov.Extra = extra
	if prov.Source == "" {
		prov.Source = p.Source
	}
	t := dataset.NewTable(ProfileSchema, prov)
	for i := range p.Layers {
		l := &p.Layers[i]
		in := make([]int32, len(l.Inputs))
		for k, x := range l.Inputs {
			in[k] = int32(x) // < len(Layers) by Validate
		}
		if err := t.Append(p.Model, l.Name, l.Description, l.Forward, l.Backward,
			l.ActivationBytes, l.ParamBytes, in, p.Batch); err != nil {
			return nil, fmt.Errorf("zoo: ProfileTable: %w", err)
		}
	}
	return t, nil
}

// ProfileFromTable converts a table of ProfileSchema (e.g. from
// dataset.Read) back to a profile and validates it. All rows must name the
// same model and batch. Profile.Source is the table's provenance source
// and Profile.InputSide its "input_side_px" entry (0 when absent). Errors
// name the row and column.
func ProfileFromTable(t *dataset.Table) (*Profile, error) {
	if t == nil || t.Len() == 0 {
		return nil, fmt.Errorf("zoo: ProfileFromTable: empty table")
	}
	models, names, descs := t.Strings("model"), t.Strings("layer"), t.Strings("description")
	fwd, bwd := t.Floats("forward_s"), t.Floats("backward_s")
	act, par, batch := t.Ints("activation_bytes"), t.Ints("param_bytes"), t.Ints("batch")
	inputs := t.Lists("inputs")
	p := &Profile{Model: models[0], Source: t.Provenance.Source, Batch: int(batch[0]),
		Layers: make([]Layer, t.Len())}
	if s, ok := t.Provenance.Extra[metaInputSide]; ok {
		side, err := strconv.Atoi(s)
		if err != nil || side < 0 {
			return nil, fmt.Errorf("zoo: ProfileFromTable: metadata %s: bad value %q", metaInputSide, s)
		}
		p.InputSide = side
	}
	for r := range p.Layers {
		if models[r] != p.Model {
			return nil, fmt.Errorf("zoo: ProfileFromTable: column \"model\" row %d: %q, row 0 has %q (one model per table)", r, models[r], p.Model)
		}
		if int(batch[r]) != p.Batch {
			return nil, fmt.Errorf("zoo: ProfileFromTable: column \"batch\" row %d: %d, row 0 has %d (one batch per table)", r, batch[r], p.Batch)
		}
		var in []int
		if len(inputs[r]) > 0 {
			in = make([]int, len(inputs[r]))
			for k, x := range inputs[r] {
				in[k] = int(x)
			}
		}
		p.Layers[r] = Layer{Name: names[r], Description: descs[r], Forward: fwd[r], Backward: bwd[r],
			ActivationBytes: act[r], ParamBytes: par[r], Inputs: in}
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("zoo: ProfileFromTable: %w", err)
	}
	return p, nil
}
