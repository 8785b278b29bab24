package testbed

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/collection"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
)

// repeatMain is `pslab testbed repeat`: measure each selected
// configuration n times, the last time with a CPU hog (a busy shell loop
// on one core, started and killed by its pid here), write nothing, and
// print the spread of every throughput point. The target is a spread
// ≤ 5%, or the loaded run flagged by its other work (over
// accounting.MaxOther: the hog is what it is there to catch; without
// stretched points every run is unjudged, so host_limited says nothing
// here).
func repeatMain(ctx context.Context, args []string, self Launcher, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed repeat", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "repository root")
	cfgPath := fs.String("config", "datasets/testbed/configs.toml", "configuration file")
	only := fs.String("only", "resnet18-ordered-tic,alexnet-b512-mux,resnet50-mux", "comma-separated configuration names")
	n := fs.Int("n", 3, "runs per configuration; the last one with the CPU hog")
	workers := fs.String("workers", "1,4", "W list of every run")
	scale := fs.Float64("steps-scale", 1, "multiply the step counts by this factor")
	mode := fs.String("network", "auto", "auto, netns or loopback")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 2 {
		return fmt.Errorf("testbed repeat: -n %d, need ≥ 2", *n)
	}
	if err := network.CheckMode(*mode); err != nil {
		return fmt.Errorf("testbed repeat: %w", err)
	}
	path := *cfgPath
	if !filepath.IsAbs(path) {
		path = filepath.Join(*root, path)
	}
	cfgs, err := config.LoadConfigs(path, *root)
	if err != nil {
		return err
	}
	if cfgs, err = selectConfigs(cfgs, *only); err != nil {
		return fmt.Errorf("testbed repeat: %w", err)
	}
	ws, err := parseInts(*workers)
	if err != nil {
		return fmt.Errorf("testbed repeat: -workers: %w", err)
	}
	hosts := 0
	for i := range cfgs {
		cfgs[i] = cfgs[i].Scale(*scale)
		cfgs[i].Workers = ws
		// the spread of fixed runs is what is measured: no sequential
		// repetitions, no stretched points
		cfgs[i].MaxRepetitions, cfgs[i].Dilations, cfgs[i].DilatePoints = 0, nil, 0
		hosts = max(hosts, cfgs[i].Servers+slices.Max(ws))
	}
	net, err := network.Open(ctx, *mode, hosts, stderr)
	if err != nil {
		return err
	}
	defer net.Close()
	self.Nice = defaultNice()
	failed := 0
	for _, c := range cfgs {
		var outs []*collection.Outcome
		for k := range *n {
			loaded := k == *n-1
			var hog *exec.Cmd
			if loaded {
				hog = exec.Command("sh", "-c", "while :; do :; done")
				if err := hog.Start(); err != nil {
					return fmt.Errorf("testbed repeat: CPU hog: %w", err)
				}
			}
			o, err := self.measure(ctx, net, *root, c, stderr)
			if hog != nil {
				hog.Process.Kill()
				hog.Wait()
			}
			if err != nil {
				return err
			}
			outs = append(outs, o)
		}
		for i, w := range c.Workers {
			var xs []string
			lo, hi := outs[0].Points[i].Mean, outs[0].Points[i].Mean
			for k, o := range outs {
				x := o.Points[i].Mean
				lo, hi = min(lo, x), max(hi, x)
				tag := ""
				if k == len(outs)-1 {
					tag = " (hog)"
				}
				xs = append(xs, fmt.Sprintf("%.0f%s", x, tag))
			}
			mean, _ := analysis.MeanStd(func() []float64 {
				var v []float64
				for _, o := range outs {
					v = append(v, o.Points[i].Mean)
				}
				return v
			}())
			spread := (hi - lo) / mean
			loaded := outs[len(outs)-1]
			verdict := "ok"
			switch {
			case spread <= 0.05:
			case loaded.Acct.Other > accounting.MaxOther:
				verdict = fmt.Sprintf("spread over 5%%, loaded run flagged: other work %.2f cores > %.2f", loaded.Acct.Other, accounting.MaxOther)
			default:
				verdict = "FAIL: spread over 5% and the loaded run is not flagged by its other work"
				failed++
			}
			fmt.Fprintf(stdout, "%-28s W=%d  %s examples/s  spread %.1f%%  %s\n", c.Name, w, strings.Join(xs, ", "), 100*spread, verdict)
		}
		for k, o := range outs {
			fmt.Fprintf(stdout, "    run %d: %s\n", k+1, o.Acct.Summary())
		}
	}
	if failed > 0 {
		return fmt.Errorf("testbed repeat: %d throughput point(s) spread over 5%% without the loaded run flagged by its other work", failed)
	}
	return nil
}
