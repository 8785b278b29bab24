package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"pslab/engine/atomicfile"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/figure"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// checkOutput validates the output flags before any work is done.
func (f *predictFlags) checkOutput() error {
	switch f.format {
	case "text", "csv", "json":
	case "arrow":
		if f.out == "" || !strings.HasSuffix(f.out, ".arrow") {
			return usagef("predict: -format arrow needs -o <file.arrow>, got -o %q", f.out)
		}
	default:
		return usagef("predict: -format %q (want text, csv, json or arrow)", f.format)
	}
	if f.figure != "" && !strings.HasSuffix(f.figure, ".svg") && !strings.HasSuffix(f.figure, ".png") {
		return usagef("predict: -figure %s: want a .svg or .png file", f.figure)
	}
	if !finiteKnee(f.knee) {
		return usagef("predict: -knee %v: need a fraction 0 < f ≤ 1", f.knee)
	}
	if f.out != "" && f.figure != "" && filepath.Clean(f.out) == filepath.Clean(f.figure) {
		return usagef("predict: -o and -figure are the same file %s", f.out)
	}
	for _, o := range []struct{ flag, path string }{{"-o", f.out}, {"-figure", f.figure}} {
		if o.path == "" {
			continue
		}
		if err := experiment.Writable(o.path); err != nil {
			return fmt.Errorf("predict: %s: %w", o.flag, err)
		}
	}
	return nil
}

// write prints or writes the report and the figure. Everything is
// rendered in memory first; then -o is written, then -figure, each
// atomically, and a failure writing the figure removes a new -o file, so
// an error leaves nothing new on disk.
func (f *predictFlags) write(in *predictInput, runs []*predict.Prediction, stdout io.Writer) error {
	r := f.report(in, runs)
	var fig []byte
	if f.figure != "" {
		spec := figure.Spec{Title: "pslab predict: " + in.model + " throughput vs workers", Caption: r.Setup,
			XLabel: "workers W", YLabel: "throughput (examples/s)", LogY: f.logY, Legend: "top left",
			Bands: r.Bands(), BandsLabel: "trust band: ± the model's mean |error| on comparable measurements"}
		svg, png, err := figure.Render(spec, r.Result().Table)
		if err != nil {
			return fmt.Errorf("predict: -figure: %w", err)
		}
		fig = svg
		if strings.HasSuffix(f.figure, ".png") {
			fig = png
		}
	}
	var buf bytes.Buffer
	var err error
	switch f.format {
	case "arrow":
		t, notes, xerr := r.Export() // the result table with the trust columns
		if xerr != nil {
			return xerr
		}
		t.Provenance = dataset.Provenance{Origin: dataset.Derived, Source: strings.Join(in.files, ", "),
			Licence: "derived from the input's data; the input's licence applies", Command: f.command,
			Notes: strings.Join(notes, "\n"), Extra: map[string]string{"dnn": in.model, "knee_fraction_of_max": fmt.Sprint(f.knee)}}
		var b []byte
		if b, err = dataset.Encode(t, dataset.Allocator); err == nil {
			buf.Write(b)
		}
	case "csv":
		err = r.WriteCSV(&buf)
	case "json":
		err = r.WriteJSON(&buf)
	default:
		err = r.WriteText(&buf)
	}
	if err != nil {
		return err
	}
	newOut := false
	if f.out != "" {
		_, statErr := os.Stat(f.out)
		newOut = errors.Is(statErr, fs.ErrNotExist)
		if err := atomicfile.Write(f.out, buf.Bytes()); err != nil {
			return fmt.Errorf("predict: -o: %w", err)
		}
	}
	if f.figure != "" {
		if err := atomicfile.Write(f.figure, fig); err != nil {
			if newOut {
				os.Remove(f.out)
			}
			return fmt.Errorf("predict: -figure: %w", err)
		}
	}
	if f.out == "" {
		_, err = stdout.Write(buf.Bytes())
	}
	return err
}

// gbps formats a bandwidth in bytes/s as Gbit/s.
func gbps(bw float64) string { return fmt.Sprintf("%.4g Gbit/s", bw*8/1e9) }

// report assembles what is printed.
func (f *predictFlags) report(in *predictInput, runs []*predict.Prediction) *predict.Report {
	r := &predict.Report{Model: in.model, Knee: f.knee, Runs: runs}
	what := map[string]string{"trace": "recorded 1-worker trace", "tf-timeline": "TF timeline, a recorded 1-worker trace",
		"profile": "per-layer profile", "kineto": "PyTorch Kineto trace → per-layer profile", "pipedream": "PipeDream graph → per-layer profile"}[in.format]
	if in.profile != nil {
		r.Input = fmt.Sprintf("input: %s (%s): %s, batch %d, %d layers, %.4g MB of parameters, %.4g s of compute per step",
			strings.Join(in.files, " "), what, in.model, in.profile.Batch, len(in.profile.Layers), float64(in.profile.ParamBytes())/1e6, in.profile.ComputeSeconds())
	} else {
		m := in.trace.Meta
		win := "no WIN recorded"
		if m.Window > 0 {
			win = fmt.Sprintf("WIN %d B", m.Window)
		}
		r.Input = fmt.Sprintf("input: %s (%s): %s, batch %d, %d steps, %d PS, recorded at %s, %s, α %g s/B, β %g s",
			strings.Join(in.files, " "), what, in.model, m.Batch, len(in.trace.Steps), max(m.Servers, 1), gbps(m.Bandwidth), win, m.Alpha, m.Beta)
	}
	c, _ := f.cluster(in) // validated by run
	win := "off"
	if c.Link.Mode == sim.Multiplex {
		w := c.Link.Window
		if w == 0 {
			w = in.trace.Meta.Window // a recorded trace's own
		}
		win = fmt.Sprintf("%.4g MB", float64(w)/1e6)
	}
	steps, warm := max(f.steps, 0), f.warmup
	if steps == 0 {
		switch {
		case f.paper:
			steps = sim.DefaultSteps
		case c.Sync == sim.BSP:
			steps = sim.RegenerativeSteps
		default:
			steps = sim.DefaultEstimateSteps
		}
	}
	if warm == 0 {
		warm = sim.DefaultWarmup
	}
	r.Setup = fmt.Sprintf("cluster: %s transport (WIN %s), order %s", predict.TransportName(c.Link.Mode), win, predict.OrderName(c.Link.Order))
	if in.profile != nil {
		r.Setup += fmt.Sprintf(", α %g s/B, β %g s, device speed %g, jitter %g", c.Alpha, c.Beta, c.DeviceSpeed, c.Jitter)
	}
	r.Setup += f.cl.setup(c)
	if f.paper {
		r.Setup += fmt.Sprintf("; simulator: icpe20's procedure, %d steps per worker, warm-up %d completions, seed %d, no interval", steps, warm, f.seed)
	} else if c.Sync == sim.BSP {
		r.Setup += fmt.Sprintf("; simulator: converged estimate, 95%% CI ±%g%% by the regenerative method: the cycles between barrier releases of ≥ %d replications of %d steps (first step deleted), seed %d",
			100*f.precision, sim.DefaultReplications, steps, f.seed)
	} else {
		length := fmt.Sprintf("%d steps", steps)
		if f.steps <= 0 {
			length = fmt.Sprintf("%d steps (to W = 10, then ⌈%d/W⌉, at least %d)", steps, sim.EstimateCompletions, sim.MinEstimateSteps)
		}
		r.Setup += fmt.Sprintf("; simulator: converged estimate, 95%% CI ±%g%% by ≥ %d replications of ≥ %s (MSER-5 transient deleted), seed %d",
			100*f.precision, sim.DefaultReplications, length, f.seed)
	}
	if f.meas != nil {
		r.Measured, r.Errors, r.Missing = f.meas.rows, f.meas.errs, f.meas.missing
	}
	r.Trust = f.trust
	return r
}
