package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"pslab/engine/testbed"
)

// testbedCmd is `pslab testbed run|ps|worker`. SIGINT and SIGTERM cancel
// the run, which then kills its processes and removes its network
// namespaces before returning.
func testbedCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("testbed: cannot find the pslab binary: %w", err)
	}
	return testbed.Main(ctx, args, testbed.Launcher{Argv: []string{exe, "testbed"}}, stdout, stderr)
}
