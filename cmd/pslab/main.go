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
//	pslab version                                        module version and VCS revision
//
// Every command prints its usage to stdout with -h and exits 0; a command
// line it cannot parse exits 2, any other error 1.
//
// Run 'pslab <command> -h' for the flags of a command.
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
