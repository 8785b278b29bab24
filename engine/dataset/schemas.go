package dataset

// Origins of data (Provenance.Origin and the result table's origin column).
const (
	Measured = "measured" // a real run on real hardware or real external data
	Reported = "reported" // printed in a paper
	Derived  = "derived"  // computed from other inputs by a model or formula
)

// TraceSchema is one row per operation of each profiled step.
var TraceSchema = &Schema{Name: "trace", Columns: []Column{
	{Name: "step", Type: Int64, Rule: NonNegative, Doc: "profiled step index"},
	{Name: "op", Type: Int64, Rule: NonNegative, Doc: "operation index within the step"},
	{Name: "name", Type: String, Doc: "operation name"},
	{Name: "kind", Type: String, Rule: Enum, Values: []string{"compute", "comm"}, Doc: "compute or comm"},
	{Name: "resource", Type: String, Rule: Enum, Values: []string{"downlink", "worker", "uplink", "ps"}, Doc: "resource the operation occupies"},
	{Name: "ps", Type: Int64, Rule: NonNegative, Doc: "parameter server index (0-based) of links and PS operations"},
	{Name: "start_ns", Type: Int64, Unit: "ns", Rule: NonNegative, Doc: "recorded start from the start of the step"},
	{Name: "end_ns", Type: Int64, Unit: "ns", Rule: NonNegative, Doc: "recorded end from the start of the step"},
	{Name: "bytes", Type: Int64, Unit: "bytes", Rule: NonNegative, Doc: "transferred tensor size (comm only)"},
	{Name: "deps", Type: Int32List, Rule: NonNegative, Doc: "indices of the operations this one waits for"},
}}

// MeasurementSchema is one row per measured configuration.
var MeasurementSchema = &Schema{Name: "measurement", Columns: []Column{
	{Name: "source", Type: String, Doc: "dataset or run the row comes from"},
	{Name: "platform", Type: String, Doc: "hardware and software"},
	{Name: "model", Type: String, Doc: "DNN name"},
	{Name: "batch", Type: Int64, Rule: Positive, Unit: "examples", Doc: "examples per step per worker"},
	{Name: "workers", Type: Int64, Rule: Positive, Doc: "number of workers"},
	{Name: "ps", Type: Int64, Rule: Positive, Doc: "number of parameter servers"},
	{Name: "sync", Type: String, Rule: Enum, Values: []string{"asp", "bsp"}, Doc: "asynchronous or bulk-synchronous SGD"},
	{Name: "transport", Type: String, Doc: "multiplexed (HTTP/2 flow control on) or ordered (flow control off)"},
	{Name: "order", Type: String, Doc: "stream order for ordered transport: default, tic, reverse, random"},
	{Name: "throughput", Type: Float64, Rule: NonNegative, Unit: "examples/s", Doc: "time-averaged throughput of all workers"},
	{Name: "throughput_std", Type: Float64, Rule: NonNegative, Unit: "examples/s", Doc: "standard deviation over repetitions"},
	{Name: "steps", Type: Int64, Rule: Positive, Doc: "steps averaged over"},
	{Name: "window", Type: Int64, Rule: NonNegative, Unit: "bytes", Doc: "HTTP/2 flow-control window (0: flow control off)"},
}}

// ResultSchema holds the rows behind a figure or table. The units of x, y,
// y_lo and y_hi are the figure's: the experiment runner sets them (and the
// axis labels) per experiment with WithColumn, from the experiment's
// [plot] table.
var ResultSchema = &Schema{Name: "result", Columns: []Column{
	{Name: "series", Type: String, Doc: "curve or bar group the row belongs to"},
	{Name: "category", Type: String, Doc: "category label of bar charts and tables; empty for curves"},
	{Name: "x", Type: Float64, Doc: "abscissa (unit: the field's unit, from the figure's x label); 0 on bar-chart rows"},
	{Name: "y", Type: Float64, Doc: "value (unit: the field's unit, from the figure's y label)"},
	{Name: "y_lo", Type: Float64, Doc: "lower end of the row's interval, in y's unit: the 95% confidence interval of an estimate (derived rows), one standard deviation below the mean over repetitions (measured rows); = y without one"},
	{Name: "y_hi", Type: Float64, Doc: "upper end of the row's interval, in y's unit (see y_lo); = y without one"},
	{Name: "model", Type: String, Doc: "model that produced the row, or measurement"},
	{Name: "origin", Type: String, Rule: Enum, Values: []string{Measured, Reported, Derived}, Doc: "measured, reported or derived"},
	{Name: "error", Type: Float64, Unit: "1", Doc: "relative error against the measurement at the same x, as a fraction ((prediction − measurement)/measurement, or its magnitude where the experiment says so), NaN-free: 0 when none"},
}}

// PhasesSchema is a mascots18 phase profile: per job, the service times of
// one step at the worker, uplink, server and downlink.
var PhasesSchema = &Schema{Name: "phases", Columns: []Column{
	{Name: "job", Type: String, Doc: "job or DNN name"},
	{Name: "batch", Type: Int64, Rule: Positive, Unit: "examples"},
	{Name: "s_w", Type: Float64, Rule: NonNegative, Unit: "s", Doc: "S^W, computation at the worker"},
	{Name: "s_u", Type: Float64, Rule: NonNegative, Unit: "s", Doc: "S^U, uplink transfer"},
	{Name: "s_s", Type: Float64, Rule: NonNegative, Unit: "s", Doc: "S^S, processing at the parameter server"},
	{Name: "s_d", Type: Float64, Rule: NonNegative, Unit: "s", Doc: "S^D, downlink transfer"},
	{Name: "origin", Type: String, Rule: Enum, Values: []string{Measured, Reported, Derived}},
}}

// InstanceSchema is a cloud instance catalogue (Cynthia).
var InstanceSchema = &Schema{Name: "instance", Columns: []Column{
	{Name: "instance", Type: String},
	{Name: "cpu", Type: Float64, Rule: Positive, Unit: "FLOP/s", Doc: "CPU capability c"},
	{Name: "bandwidth", Type: Float64, Rule: Positive, Unit: "bytes/s", Doc: "PS network bandwidth b_ps"},
	{Name: "price", Type: Float64, Rule: NonNegative, Unit: "USD/h", Doc: "hourly price"},
	{Name: "cpu_origin", Type: String, Rule: Enum, Values: []string{Measured, Reported, Derived, "assumed"}},
	{Name: "bandwidth_origin", Type: String, Rule: Enum, Values: []string{Measured, Reported, Derived, "assumed"}},
	{Name: "price_origin", Type: String, Rule: Enum, Values: []string{Measured, Reported, Derived, "assumed"}},
	{Name: "source", Type: String, Doc: "where each value comes from"},
}}
