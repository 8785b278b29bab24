package main

import (
	"fmt"
	"runtime/debug"
)

// buildRevision is the revision stamped at link time when the build
// records no VCS information (GOFLAGS=-buildvcs=false, a source tarball):
//
//	go build -ldflags "-X main.buildRevision=$(git describe --always --dirty)" ./cmd/pslab
var buildRevision string

// versionHint says how to get a revision into a build that has none.
const versionHint = `build in a git clone with 'go build ./cmd/pslab' (VCS stamping is on by default), ` +
	`or stamp one: go build -ldflags "-X main.buildRevision=$(git describe --always --dirty)" ./cmd/pslab`

// versionString is "pslab <module version> revision <revision>[+modified]
// [<commit time>] <go version>" from the build information bi (ok: there
// is some). Without a VCS stamp it falls back to the link-time stamp
// (buildRevision, passed as stamp), and without either it says why there is
// no revision and how to get one, instead of a bare "unknown".
func versionString(bi *debug.BuildInfo, ok bool, stamp string) string {
	if !ok || bi == nil {
		return "pslab (no build information) revision unknown: " + versionHint
	}
	ver, rev, dirty, when, buildvcs := bi.Main.Version, "", "", "", ""
	if ver == "" {
		ver = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+modified"
			}
		case "vcs.time":
			when = " " + s.Value
		case "-buildvcs":
			buildvcs = s.Value
		}
	}
	switch {
	case rev != "":
		return fmt.Sprintf("pslab %s revision %s%s%s %s", ver, rev, dirty, when, bi.GoVersion)
	case stamp != "":
		return fmt.Sprintf("pslab %s revision %s (stamped at link time) %s", ver, stamp, bi.GoVersion)
	}
	why := "the build recorded no VCS information (not built inside a git checkout, or by go run)"
	if buildvcs == "false" {
		why = "built with -buildvcs=false, which records no VCS information"
	}
	return fmt.Sprintf("pslab %s revision unknown %s: %s; %s", ver, bi.GoVersion, why, versionHint)
}
