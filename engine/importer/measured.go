package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strings"

	"pslab/engine/dataset"
)

// MeasuredOptions gives the values of MeasurementSchema columns that a
// measured CSV does not contain. A column in the file always wins.
type MeasuredOptions struct {
	// Source names the dataset or run (empty → the file's base name).
	Source string
	// Platform describes the hardware and software (may be empty).
	Platform string
	// Model is the DNN name (required unless the file has a model column).
	Model string
	// Batch is the examples per step of one worker node, all its GPUs
	// together (required unless the file has a batch, batch_per_node or
	// batch_per_gpu column).
	Batch int
	// Servers is the PS count of rows without a ps column (0 → 1).
	Servers int
	// GPUsPerNode is G, the GPUs of one worker node, for a batch_per_gpu
	// column without a gpus_per_node column; it is recorded in the
	// provenance (ExtraGPUsPerNode). 0: not stated.
	GPUsPerNode int
	// Colocated says every worker node holds one PS shard: the ps of rows
	// without a ps column is their worker count, and the provenance
	// records it (ExtraColocated).
	Colocated bool
	// Sync is "asp" or "bsp" (required unless the file has a sync column).
	Sync string
	// Transport and Order describe the transfer policy (may be empty).
	Transport, Order string
	// Steps is the number of steps averaged over (0 → 1).
	Steps int
	// Window is the HTTP/2 flow-control window in bytes (0: off or unknown).
	Window int64
}

// measuredColumn returns the MeasurementSchema column a CSV header names:
// every schema column is a known CSV column.
func measuredColumn(name string) (dataset.Column, bool) {
	if nodeColumns[name] {
		return dataset.Column{Name: name, Type: dataset.Int64}, true
	}
	i := dataset.MeasurementSchema.Index(name)
	if i < 0 {
		return dataset.Column{}, false
	}
	return dataset.MeasurementSchema.Columns[i], true
}

// ReadMeasured streams a CSV of measured throughputs from r into a table
// of dataset.MeasurementSchema with provenance prov (one record in memory
// at a time). name is used in errors ("name:line: column: problem") and
// as the default source.
//
// The header names MeasurementSchema columns (workers and throughput are
// required; any other column is optional, unknown names are errors). Units
// are declared either as a header suffix, "throughput[examples/s]", or in
// a unit row right after the header whose non-empty cells are all in
// brackets, "[examples/s]". Throughput, throughput_std and window must
// declare a unit, which is converted to the schema's (examples/s, bytes;
// see unitFactors for the accepted units); batch may omit "examples";
// dimensionless columns must not have a unit. Rows with a value that is
// not a number where one is needed, a negative or non-finite number, a
// non-integer count, or an unknown sync mode are rejected.
func ReadMeasured(r io.Reader, name string, opt MeasuredOptions, prov dataset.Provenance) (*dataset.Table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file, want a header", name)
		}
		return nil, csvError(name, err)
	}
	cols, units, err := measuredHeader(head, name)
	if err != nil {
		return nil, err
	}
	pending, err := cr.Read()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, csvError(name, err)
	}
	if err == nil && isUnitRow(pending) {
		line, _ := cr.FieldPos(0)
		if err := mergeUnitRow(cols, units, pending, name, line); err != nil {
			return nil, err
		}
		pending = nil
	}
	b, err := newMeasuredBuilder(cols, units, opt, name)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, c := range cols {
		seen[c] = true
	}
	if err := checkBatchColumns(seen, opt, name); err != nil {
		return nil, err
	}
	t := dataset.NewTable(dataset.MeasurementSchema, prov)
	for {
		rec := pending
		pending = nil
		if rec == nil {
			rec, err = cr.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, csvError(name, err)
			}
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(cols) {
			return nil, fmt.Errorf("%s:%d: %d fields, header has %d", name, line, len(rec), len(cols))
		}
		row, err := b.row(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if err := t.Append(row...); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("%s: no measurements after the header", name)
	}
	t.Provenance.Extra = b.clusterExtra(t.Provenance.Extra)
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// measuredHeader parses the header into schema column names and units.
func measuredHeader(head []string, name string) (cols, units []string, err error) {
	seen := map[string]bool{}
	for i, cell := range head {
		n, u, err := splitUnit(cell)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:1: column %d: %v", name, i+1, err)
		}
		if _, ok := measuredColumn(n); !ok {
			known := make([]string, len(dataset.MeasurementSchema.Columns))
			for k, c := range dataset.MeasurementSchema.Columns {
				known[k] = c.Name
			}
			known = append(known, ColBatchPerNode, ColBatchPerGPU, ColGPUsPerNode)
			return nil, nil, fmt.Errorf("%s:1: unknown column %q (known: %s)", name, n, strings.Join(known, ", "))
		}
		if seen[n] {
			return nil, nil, fmt.Errorf("%s:1: duplicate column %q", name, n)
		}
		seen[n] = true
		cols, units = append(cols, n), append(units, u)
	}
	for _, req := range []string{"workers", "throughput"} {
		if !seen[req] {
			return nil, nil, fmt.Errorf("%s:1: missing required column %q", name, req)
		}
	}
	return cols, units, nil
}

// mergeUnitRow takes the units of a unit row; a unit given both in the
// header and in the unit row must agree.
func mergeUnitRow(cols, units, rec []string, name string, line int) error {
	if len(rec) != len(cols) {
		return fmt.Errorf("%s:%d: unit row has %d fields, header has %d", name, line, len(rec), len(cols))
	}
	for i, c := range rec {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		u := strings.TrimSpace(c[1 : len(c)-1])
		if units[i] != "" && units[i] != u {
			return fmt.Errorf("%s:%d: column %s: unit row says [%s], header says [%s]", name, line, cols[i], u, units[i])
		}
		units[i] = u
	}
	return nil
}

// measuredBuilder turns records into MeasurementSchema rows.
type measuredBuilder struct {
	at     map[string]int     // column → field index
	factor map[string]float64 // column → unit factor
	opt    MeasuredOptions
	gpus   int64 // the GPUs per node of the rows so far (0: not stated)
}

func newMeasuredBuilder(cols, units []string, opt MeasuredOptions, name string) (*measuredBuilder, error) {
	b := &measuredBuilder{at: map[string]int{}, factor: map[string]float64{}, opt: opt}
	for i, c := range cols {
		f, err := unitFactor(c, units[i])
		if err != nil {
			return nil, fmt.Errorf("%s:1: %v", name, err)
		}
		b.at[c], b.factor[c] = i, f
	}
	if b.opt.Source == "" {
		b.opt.Source = path.Base(strings.ReplaceAll(name, "\\", "/"))
	}
	if b.opt.Steps == 0 {
		b.opt.Steps = 1
	}
	for _, v := range []struct {
		option string
		x      int64
	}{{"Steps", int64(opt.Steps)}, {"Window", opt.Window}, {"Batch", int64(opt.Batch)},
		{"Servers", int64(opt.Servers)}, {"GPUsPerNode", int64(opt.GPUsPerNode)}} {
		if v.x < 0 {
			return nil, &OptionError{File: name, Option: v.option, Problem: fmt.Sprintf("%d is negative", v.x)}
		}
	}
	if _, ok := b.at["model"]; !ok && opt.Model == "" {
		return nil, &OptionError{File: name, Option: "Model", Problem: "no model column and no default model"}
	}
	_, perNode := b.at[ColBatchPerNode]
	_, perGPU := b.at[ColBatchPerGPU]
	if _, ok := b.at["batch"]; !ok && !perNode && !perGPU && opt.Batch <= 0 {
		return nil, &OptionError{File: name, Option: "Batch", Problem: "no batch column (batch, batch_per_node or batch_per_gpu) and no default batch (> 0 examples)"}
	}
	if _, ok := b.at["sync"]; !ok && opt.Sync != "asp" && opt.Sync != "bsp" {
		return nil, &OptionError{File: name, Option: "Sync", Problem: fmt.Sprintf("no sync column and default sync %q (want asp or bsp)", opt.Sync)}
	}
	return b, nil
}

// OptionError is ReadMeasured's error for a MeasuredOptions default that
// is missing (the file has no column for it) or invalid, so that a caller
// can name its own option (pslab import measured-csv: -model, -batch,
// -sync, -steps, -window, -ps, -gpus-per-node).
type OptionError struct {
	File    string // the CSV
	Option  string // the MeasuredOptions field: Model, Batch, Sync, Steps, Window, Servers or GPUsPerNode
	Problem string // what is wrong, e.g. "no model column and no default model"
}

// Error names the file, the option and the problem.
func (e *OptionError) Error() string {
	return fmt.Sprintf("%s: MeasuredOptions.%s: %s", e.File, e.Option, e.Problem)
}

// row builds the values of one record in MeasurementSchema column order.
func (b *measuredBuilder) row(rec []string) ([]any, error) {
	str := func(col, def string) string {
		if i, ok := b.at[col]; ok {
			return strings.TrimSpace(rec[i])
		}
		return def
	}
	num := func(col string, def float64) (float64, error) {
		i, ok := b.at[col]
		if !ok {
			return def, nil
		}
		x, err := nonNegative(rec[i])
		if err != nil {
			return 0, fmt.Errorf("column %s: %v", col, err)
		}
		return x * b.factor[col], nil
	}
	count := func(col string, def int64, min int64) (int64, error) {
		x, err := num(col, float64(def))
		if err != nil {
			return 0, err
		}
		if r := math.Round(x); math.Abs(x-r) <= 1e-9*math.Max(1, x) {
			x = r // 1.1 MB × 1e6 is 1100000.0000000002 in float64
		}
		if x != math.Trunc(x) || x < float64(min) || x > 1<<53 {
			return 0, fmt.Errorf("column %s: %v is not a whole number ≥ %d", col, x, min)
		}
		return int64(x), nil
	}
	batch, gpus, err := b.nodeBatch(count)
	if err != nil {
		return nil, err
	}
	if err := b.noteGPUs(gpus); err != nil {
		return nil, err
	}
	workers, err := count("workers", 0, 1)
	if err != nil {
		return nil, err
	}
	servers := int64(max(b.opt.Servers, 1))
	if b.opt.Colocated {
		servers = workers
	}
	vals := make([]any, 0, len(dataset.MeasurementSchema.Columns))
	for _, c := range dataset.MeasurementSchema.Columns {
		var v any
		var err error
		switch c.Name {
		case "source":
			v = str(c.Name, b.opt.Source)
		case "platform":
			v = str(c.Name, b.opt.Platform)
		case "model":
			s := str(c.Name, b.opt.Model)
			if s == "" {
				err = fmt.Errorf("column model: empty")
			}
			v = s
		case "sync":
			s := strings.ToLower(str(c.Name, b.opt.Sync))
			if s != "asp" && s != "bsp" {
				err = fmt.Errorf("column sync: %q (want asp or bsp)", s)
			}
			v = s
		case "transport":
			v = str(c.Name, b.opt.Transport)
		case "order":
			v = str(c.Name, b.opt.Order)
		case "batch":
			v = batch
		case "workers":
			v = workers
		case "ps":
			v, err = count(c.Name, servers, 1)
		case "steps":
			v, err = count(c.Name, int64(b.opt.Steps), 1)
		case "window":
			v, err = count(c.Name, b.opt.Window, 0)
		case "throughput", "throughput_std":
			v, err = num(c.Name, 0)
		default:
			panic("importer: MeasurementSchema column " + c.Name + " not handled")
		}
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	return vals, nil
}
