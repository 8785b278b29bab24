package testbed

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/collection"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
)

// Main runs `pslab testbed <run|ps|worker> [flags]`. self starts this
// program's testbed command in a child process (the coordinator of `run`
// starts the PS and worker processes with it).
func Main(ctx context.Context, args []string, self Launcher, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("testbed: no subcommand")
	}
	switch args[0] {
	case "run":
		return collectMain(ctx, args[1:], self, stdout, stderr)
	case "ps":
		return psMain(ctx, args[1:], stdout, stderr)
	case "worker":
		return workerMain(ctx, args[1:], stdout, stderr)
	case "reduce":
		return reduceMain(args[1:], stdout, stderr)
	case "verify":
		return verifyMain(args[1:], stdout, stderr)
	case "repeat":
		return repeatMain(ctx, args[1:], self, stdout, stderr)
	case "timeline":
		return timelineMain(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("testbed: unknown subcommand %q", args[0])
}

const usage = `usage:
  pslab testbed run [-config datasets/testbed/configs.toml] [-only name,...] [-network auto|netns|loopback] [-steps-scale f] [-dry] [-strict] [-force] [-retry-limited]
        measure configurations (repetitions until a ±3% CI, stretched points; doc.go "Judging a point")
        and write datasets/testbed/<name>/*.arrow and timeline.json;
        skips configurations whose committed dataset has the same configuration hash and accounting version
  pslab testbed timeline dir...
        write dir/timeline.json (not committed) from dir/trace.arrow
  pslab testbed repeat [-only a,b,c] [-n 3] [-workers 1,4]
        measure configurations n times, the last with a CPU hog; print the spread (writes nothing)
  pslab testbed verify [dir]
        judge every point of every committed configuration (dilation sensitivity, CI over repetitions,
        modes, limits) and print it; fail unless every point holds
  pslab testbed ps -listen host:port -index i [job flags]
        serve one parameter server until every worker is done
  pslab testbed worker -id w -ps host:port[,host:port] -steps n [-trace [-timeline f.json]] [job flags]
        train and print the measurements as JSON
  pslab testbed reduce -results dir -out dir -name n -bandwidth-mbit B [job flags]
        turn worker results of hand-started runs (real hosts) into datasets
Run 'pslab testbed <subcommand> -h' for the flags.
`

func collectMain(ctx context.Context, args []string, self Launcher, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "repository root (profile_dir is relative to it)")
	cfgPath := fs.String("config", "datasets/testbed/configs.toml", "configuration file")
	out := fs.String("out", "datasets/testbed", "output directory (one subdirectory per configuration)")
	only := fs.String("only", "", "comma-separated configuration names (default: all)")
	mode := fs.String("network", "auto", "auto (namespaces if root and iproute2, else loopback), netns or loopback")
	scale := fs.Float64("steps-scale", 1, "multiply steps, average and profile_steps by this factor (quick runs)")
	reps := fs.Int("reps", 0, "override repetitions, the first runs of every point (0: from the file; raises max_repetitions to it if lower)")
	workers := fs.String("workers", "", "override the W list, e.g. 1,3 (default: from the file)")
	dry := fs.Bool("dry", false, "print each configuration's predicted unscaled share, repetitions and time, run nothing; refuse configurations that cannot reach the CI within max_repetitions or are predicted over max_minutes")
	strict := fs.Bool("strict", false, "refuse configurations predicted over budget before running, and write no host_limited dataset")
	force := fs.Bool("force", false, "measure even configurations whose committed dataset has the same configuration hash")
	retryLimited := fs.Bool("retry-limited", false, "measure again configurations whose committed dataset is host_limited")
	nice := fs.Int("nice", defaultNice(), "scheduling priority of the PS and worker processes (negative needs root)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("testbed run: unexpected arguments %v", fs.Args())
	}
	if !(*scale > 0 && *scale <= 1) {
		return fmt.Errorf("testbed run: -steps-scale %v, need 0 < f ≤ 1", *scale)
	}
	if err := network.CheckMode(*mode); err != nil {
		return fmt.Errorf("testbed run: %w", err) // before -dry, which opens no network
	}
	path := *cfgPath
	if !filepath.IsAbs(path) {
		path = filepath.Join(*root, path)
	}
	cfgs, err := config.LoadConfigs(path, *root)
	if err != nil {
		return err
	}
	cfgs, err = selectConfigs(cfgs, *only)
	if err != nil {
		return fmt.Errorf("testbed run: %w", err)
	}
	for i := range cfgs {
		cfgs[i] = cfgs[i].Scale(*scale)
		if *reps > 0 {
			cfgs[i].Repetitions = *reps
			if cfgs[i].MaxRepetitions != 0 && cfgs[i].MaxRepetitions < *reps {
				cfgs[i].MaxRepetitions = *reps
			}
		}
		if *workers != "" {
			if cfgs[i].Workers, err = parseInts(*workers); err != nil {
				return fmt.Errorf("testbed run: -workers: %w", err)
			}
		}
	}
	cal, haveCal, err := config.LoadCalibration(path)
	if err != nil {
		return err
	}
	if (*dry || *strict) && !haveCal {
		return fmt.Errorf("testbed run: %s has no [calibration] table, needed by -dry and -strict", path)
	}
	dirOf := func(c config.Config) string {
		dir := filepath.Join(*out, c.Name)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(*root, dir)
		}
		return dir
	}
	if *dry || *strict {
		spread := func(c config.Config) accounting.RunSpread {
			s, _ := collection.CommittedSpread(dirOf(c), memory.NewGoAllocator())
			return s
		}
		if err := accounting.CheckBudget(cfgs, cal, *root, predictionMode(*mode), *strict, spread, stdout); err != nil || *dry {
			return err
		}
	}
	if !*force {
		var todo []config.Config
		for _, c := range cfgs {
			if ok, why := collection.UpToDate(dirOf(c), c, *retryLimited); ok {
				fmt.Fprintf(stdout, "skip %s: %s (-force measures it again)\n", c.Name, why)
			} else {
				todo = append(todo, c)
			}
		}
		if cfgs = todo; len(cfgs) == 0 {
			fmt.Fprintln(stdout, "nothing to measure")
			return nil
		}
	}
	hosts := 0
	for _, c := range cfgs {
		hosts = max(hosts, c.Servers+slices.Max(c.Workers))
	}
	net, err := network.Open(ctx, *mode, hosts, stderr)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := net.Close(); cerr != nil {
			fmt.Fprintln(stderr, "testbed: cleanup:", cerr)
		}
	}()
	host := collection.Host{Kernel: readTrim("/proc/sys/kernel/osrelease"), CPU: cpuModel(), Date: time.Now().UTC().Format(time.RFC3339),
		Command: "pslab testbed run " + strings.Join(args, " ")}
	mem := memory.NewGoAllocator()
	begin := time.Now()
	self.Nice = *nice
	var limited []string
	for _, c := range cfgs {
		o, err := self.measure(ctx, net, *root, c, stderr)
		if err != nil {
			return err
		}
		if o.Acct.HostLimited() {
			limited = append(limited, c.Name)
			if *strict {
				return fmt.Errorf("testbed run -strict: %s (%s) is host_limited, not written: %s", c.Name, c.Source, o.Acct.Cause)
			}
		}
		dir := dirOf(c)
		if err := o.Write(dir, host, mem); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-28s %8.1f s  %s\n    %s\n", c.Name, o.Elapsed.Seconds(), dir, o.Acct.Summary())
	}
	fmt.Fprintf(stdout, "%d configurations in %.1f s on %s\n", len(cfgs), time.Since(begin).Seconds(), net.Mode())
	if len(limited) > 0 {
		fmt.Fprintf(stdout, "WARNING: host_limited (written, flagged; not to judge a model): %s\n", strings.Join(limited, ", "))
	}
	return nil
}

// selectConfigs returns the configurations named in only (the value of
// -only: comma-separated names, in that order; all if empty); an unknown
// name is an error naming -only and the names there are.
func selectConfigs(cfgs []config.Config, only string) ([]config.Config, error) {
	if only == "" {
		return cfgs, nil
	}
	var out []config.Config
	for _, name := range strings.Split(only, ",") {
		i := slices.IndexFunc(cfgs, func(c config.Config) bool { return c.Name == name })
		if i < 0 {
			names := make([]string, len(cfgs))
			for k, c := range cfgs {
				names[k] = c.Name
			}
			return nil, fmt.Errorf("-only: no configuration %q (have %s)", name, strings.Join(names, ", "))
		}
		out = append(out, cfgs[i])
	}
	return out, nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("bad worker count %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// predictionMode is the network mode a run with -network mode would use,
// for the burst term of the prediction.
func predictionMode(mode string) string {
	if mode == "loopback" || network.NetnsAvailable() != nil {
		return network.Loopback
	}
	return network.Netns
}

// defaultNice is −10 for root, 0 otherwise.
func defaultNice() int {
	if os.Geteuid() == 0 {
		return -10
	}
	return 0
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
