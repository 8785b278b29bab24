// Command pslab runs the experiments of the pslab reproducibility harness,
// builds its datasets and checks results against golden values.
//
//	pslab run [-root dir] [experiment files or dirs]    run, write figures, check
//	pslab check [-root dir] [experiment files or dirs]  run in memory and check
//	pslab list [-root dir]                               list experiments and kinds
//	pslab run|predict -shard i/N ...; pslab merge DIR... one run as N shards, joined
//	pslab datasets [-root dir] [-shared dir]             rebuild every Arrow dataset
//	pslab import <format> <files...> -o out.arrow       convert a TF timeline, Kineto trace or CSV
//	pslab predict [flags] <trace or profile>              every model's throughput vs workers
//	pslab provision [flags]                              Cynthia's cost-minimal cluster for a goal
//	pslab testbed run|ps|worker [flags]                  real PS training over gRPC/TCP
//	pslab version (or --version, -version)               module version and VCS revision
//
// Every command prints its usage to stdout with -h (or 'pslab help
// <command>') and exits 0. A usage error exits 2: an unknown command or
// flag, a flag value that cannot be parsed or is out of range, a required
// input or flag missing, flags that contradict each other. Any other
// error (the data read, the work done) exits 1.
//
// list, check, run and provision take -format text|json|csv: JSON with one
// type per field (numbers as numbers, null where there is no value), CSV
// with the same values (null as an empty cell).
//
// Run 'pslab help <command>' for the flags of a command.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	code := exitCode(err)
	if code == 1 || (code == 2 && !isFlagError(err)) { // the flag package printed its own errors
		fmt.Fprintln(os.Stderr, "pslab:", err)
	}
	os.Exit(code)
}
