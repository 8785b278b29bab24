package importer

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"pslab/engine/dataset"
)

// TFBenchmarksSchema is one row per configuration of TensorFlow's published
// single-node CNN benchmark tables (tf_cnn_benchmarks, May 2017): the
// whole node's training throughput with a number of GPUs, a per-GPU batch,
// synthetic or real data and one way of sharing the variables.
var TFBenchmarksSchema = &dataset.Schema{Name: "tf_benchmarks", Columns: []dataset.Column{
	{Name: "platform", Type: dataset.String, Doc: "node the row was measured on, e.g. nvidia-dgx1"},
	{Name: "gpu", Type: dataset.String, Doc: "GPU model, e.g. P100, K80"},
	{Name: "gpus", Type: dataset.Int64, Unit: "GPUs", Rule: dataset.Positive, Doc: "GPUs of the node used"},
	{Name: "model", Type: dataset.String, Doc: "DNN name in pslab's zoo spelling, e.g. resnet50, inception_v3"},
	{Name: "batch_per_gpu", Type: dataset.Int64, Unit: "examples", Rule: dataset.Positive, Doc: "examples each GPU computes per step"},
	{Name: "data", Type: dataset.String, Rule: dataset.Enum, Values: TFBenchmarksData,
		Doc: "synthetic (a tf.Variable of ImageNet's shape, no input pipeline) or real (ImageNet through the input pipeline)"},
	{Name: "variable_update", Type: dataset.String, Rule: dataset.Enum, Values: TFBenchmarksUpdates,
		Doc: "how the variables were shared: parameter_server (every GPU pulls the variables from and pushes its gradients to local_parameter_device) or replicated_nccl (a copy per GPU, gradients all-reduced with NCCL: not a parameter server)"},
	{Name: "local_parameter_device", Type: dataset.String, Rule: dataset.Enum, Values: []string{"cpu", "gpu", "n/a"},
		Doc: "where a parameter_server row keeps the variables (cpu: the host); n/a for the other modes"},
	{Name: "throughput", Type: dataset.Float64, Unit: "examples/s", Rule: dataset.Positive,
		Doc: "training throughput of the whole node, images/s (the source's images_per_s; one example is one image)"},
}}

// TFBenchmarksData and TFBenchmarksUpdates are the values the data and
// variable_update columns allow.
var (
	TFBenchmarksData    = []string{"synthetic", "real"}
	TFBenchmarksUpdates = []string{"parameter_server", "replicated", "replicated_nccl", "independent"}
)

// Provenance facts of the TensorFlow benchmark tables as shipped in
// ../shared/datasets/tf-benchmarks-2017.
const (
	TFBenchmarksSource = "TensorFlow performance guide, \"Benchmarks\" page (TF 1.x documentation, tests of May 2017; " +
		"Markdown source site/en/r1/guide/performance/benchmarks.md in github.com/tensorflow/docs): tables of " +
		"tf_cnn_benchmarks training throughput on one node, NVIDIA DGX-1 (8x P100) and GCE n1-standard-32-k80x8 (8x K80)"
	TFBenchmarksLicence = "CC BY 4.0 (TensorFlow documentation text, Google); the numbers are facts reported there"
)

// tfBenchHeader is the exact header ReadTFBenchmarks accepts.
var tfBenchHeader = []string{"platform", "gpu", "gpus", "model", "batch_per_gpu", "data", "variable_update",
	"local_parameter_device", "images_per_s"}

// ReadTFBenchmarks streams the TensorFlow single-node benchmark CSV from r
// (one record in memory at a time) into a table of TFBenchmarksSchema, in
// file order, with provenance prov. name is used in errors, which give
// "name:line: column: problem". The header must be exactly
// platform,gpu,gpus,model,batch_per_gpu,data,variable_update,
// local_parameter_device,images_per_s (images_per_s becomes the column
// throughput, examples/s). A row is rejected if it has the wrong number of
// fields, an empty platform, gpu or model, gpus or batch_per_gpu that is
// not a whole number ≥ 1, images_per_s that is not a finite number > 0 (a
// zero or negative throughput is an error, not a missing value: the source
// leaves N/A rows out), data or variable_update outside their sets, a
// parameter_server row without local_parameter_device cpu or gpu, another
// mode with one other than n/a, or the same configuration (platform,
// model, batch, data, variable_update, gpus) twice. Blank lines are
// skipped.
func ReadTFBenchmarks(r io.Reader, name string, prov dataset.Provenance) (*dataset.Table, error) {
	cr, err := openCSV(r, name, tfBenchHeader)
	if err != nil {
		return nil, err
	}
	t := dataset.NewTable(TFBenchmarksSchema, prov)
	seen := map[string]int{} // configuration → line
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		row, err := tfBenchRow(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		key := fmt.Sprintf("%s|%s|%d|%s|%s|%d", row.platform, row.model, row.batch, row.data, row.update, row.gpus)
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s:%d: the configuration of line %d again (%s, %s, batch %d, %s, %s, %d GPUs)",
				name, line, first, row.platform, row.model, row.batch, row.data, row.update, row.gpus)
		}
		seen[key] = line
		if err := t.Append(row.platform, row.gpu, row.gpus, row.model, row.batch, row.data, row.update, row.device, row.throughput); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("%s: no rows after the header", name)
	}
	return t, nil
}

// tfBenchRecord is one parsed row of the benchmark CSV.
type tfBenchRecord struct {
	platform, gpu, model, data, update, device string
	gpus, batch                                int64
	throughput                                 float64
}

// tfBenchRow parses and checks one record; errors start with "column <c>:".
func tfBenchRow(rec []string) (tfBenchRecord, error) {
	var r tfBenchRecord
	if len(rec) != len(tfBenchHeader) {
		return r, fmt.Errorf("%d fields, want %d (%s)", len(rec), len(tfBenchHeader), strings.Join(tfBenchHeader, ","))
	}
	bad := func(col, format string, args ...any) error {
		return fmt.Errorf("column %s: %s", col, fmt.Sprintf(format, args...))
	}
	for i, col := range []int{0, 1, 3} {
		if strings.TrimSpace(rec[col]) == "" {
			return r, bad([]string{"platform", "gpu", "model"}[i], "empty")
		}
	}
	r.platform, r.gpu, r.model = strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1]), strings.TrimSpace(rec[3])
	var err error
	if r.gpus, err = wholeNumber(rec[2]); err != nil || r.gpus < 1 || r.gpus > 1<<20 {
		return r, bad("gpus", "%q is not a whole number in [1, 2^20]", rec[2])
	}
	if r.batch, err = wholeNumber(rec[4]); err != nil || r.batch < 1 || r.batch > 1<<20 {
		return r, bad("batch_per_gpu", "%q is not a whole number in [1, 2^20]", rec[4])
	}
	r.data, r.update, r.device = strings.TrimSpace(rec[5]), strings.TrimSpace(rec[6]), strings.TrimSpace(rec[7])
	if !slices.Contains(TFBenchmarksData, r.data) {
		return r, bad("data", "%q, want one of %s", rec[5], strings.Join(TFBenchmarksData, ", "))
	}
	if !slices.Contains(TFBenchmarksUpdates, r.update) {
		return r, bad("variable_update", "%q, want one of %s", rec[6], strings.Join(TFBenchmarksUpdates, ", "))
	}
	switch ps := r.update == "parameter_server"; {
	case ps && r.device != "cpu" && r.device != "gpu":
		return r, bad("local_parameter_device", "%q: a parameter_server row keeps its variables on cpu or gpu", rec[7])
	case !ps && r.device != "n/a":
		return r, bad("local_parameter_device", "%q: a %s row has no parameter device (want n/a)", rec[7], r.update)
	}
	x, err := nonNegative(rec[8])
	if err != nil || x == 0 {
		return r, bad("images_per_s", "%q is not a finite throughput > 0 images/s", rec[8])
	}
	r.throughput = x
	return r, nil
}
