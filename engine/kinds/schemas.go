package kinds

import "pslab/engine/dataset"

// The columns each kind reads from reported tables. Reading with these
// schemas checks that the columns exist with the right types (extra columns
// are ignored) before any value is used.
var (
	cynthiaTable4 = &dataset.Schema{Name: "cynthia-table4", Columns: []dataset.Column{
		{Name: "workload", Type: dataset.String},
		{Name: "w_iter", Type: dataset.Float64, Rule: dataset.Positive, Unit: "GFLOP/iteration"},
		{Name: "g_param", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "MB"},
		{Name: "c_prof", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "GFLOPS"},
		{Name: "b_prof", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "MB/s"},
	}}
	cynthiaTable1 = &dataset.Schema{Name: "cynthia-table1", Columns: []dataset.Column{
		{Name: "workload", Type: dataset.String},
		{Name: "iterations", Type: dataset.Int64, Rule: dataset.Positive},
		{Name: "batch_size", Type: dataset.Int64, Rule: dataset.Positive},
		{Name: "sync", Type: dataset.String, Rule: dataset.Enum, Values: []string{"ASP", "BSP"}},
	}}
	variableSizes = &dataset.Schema{Name: "variable sizes", Columns: []dataset.Column{
		{Name: "variable", Type: dataset.String},
		{Name: "size", Type: dataset.Float64, Rule: dataset.NonNegative},
		{Name: "size_unit", Type: dataset.String, Rule: dataset.Enum, Values: []string{"B", "KB", "MB", "GB"}},
	}}
	serverTotals = &dataset.Schema{Name: "server totals", Columns: []dataset.Column{
		{Name: "ps", Type: dataset.String},
		{Name: "total", Type: dataset.Float64, Rule: dataset.NonNegative},
		{Name: "total_unit", Type: dataset.String, Rule: dataset.Enum, Values: []string{"B", "KB", "MB", "GB"}},
	}}
	mascotsTable3 = &dataset.Schema{Name: "mascots18-table3", Columns: []dataset.Column{
		{Name: "name", Type: dataset.String},
		{Name: "examples", Type: dataset.Float64, Rule: dataset.Positive},
		{Name: "model_size", Type: dataset.Float64, Rule: dataset.Positive, Unit: "MB"},
		{Name: "tflop_per_batch", Type: dataset.Float64, Rule: dataset.Positive, Unit: "TFLOP"},
		{Name: "epochs", Type: dataset.Int64, Rule: dataset.Positive},
	}}
)
