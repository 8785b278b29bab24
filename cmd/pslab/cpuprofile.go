package main

import (
	"bytes"
	"flag"
	"fmt"
	"runtime/pprof"

	"pslab/engine/atomicfile"
)

// cpuProfile is the -cpuprofile flag of run, check and predict: a Go CPU
// profile (pprof format) of the whole command, written atomically when it
// ends. Profiles of `pslab run` and `pslab predict` are what
// cmd/pslab/default.pgo, the profile the Go compiler optimizes pslab with,
// is merged from (see the Makefile's pgo target).
type cpuProfile struct {
	path string
	buf  bytes.Buffer
}

func (p *cpuProfile) register(fs *flag.FlagSet) {
	fs.StringVar(&p.path, "cpuprofile", "", "write a Go CPU profile of this command to `FILE` (for go tool pprof, or as a PGO profile)")
}

// start begins profiling if the flag was given.
func (p *cpuProfile) start() error {
	if p.path == "" {
		return nil
	}
	if err := pprof.StartCPUProfile(&p.buf); err != nil {
		return fmt.Errorf("-cpuprofile: %w", err)
	}
	return nil
}

// stop ends profiling and writes the profile; err is the command's own
// error, returned unless it is nil and writing fails.
func (p *cpuProfile) stop(err error) error {
	if p.path == "" {
		return err
	}
	pprof.StopCPUProfile()
	if werr := atomicfile.Write(p.path, p.buf.Bytes()); werr != nil && err == nil {
		return fmt.Errorf("-cpuprofile: %w", werr)
	}
	return err
}
