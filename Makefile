# pslab: the two commands a user needs are `make figures` and `make test`.
GO ?= go
PSLAB := $(GO) run ./cmd/pslab

.PHONY: figures report test test-short bench datasets lint update-golden help fuzz pgo

help:
	@echo "make figures        run every experiment, write figures/<paper>/<name>.{svg,png,arrow}"
	@echo "make report         HTML report of every experiment, dataset and model in report/ (from make figures' results)"
	@echo "make test           go test ./... (unit tests and every experiment's golden checks)"
	@echo "make test-short     go test -short ./...: the quick local loop (heavy experiments checked on their recorded results)"
	@echo "make bench          benchmarks of the hot paths (simulator, MVA, scheduler, ...)"
	@echo "make datasets       rebuild every Arrow dataset under datasets/ from its source"
	@echo "make lint           gofmt and go vet"
	@echo "make update-golden  rewrite regression values in golden/ (never paper or derived values)"
	@echo "make slurm-test     (root) sharded run + predict sweep on a real one-node Slurm, merged, vs one run"
	@echo "make pgo            re-collect cmd/pslab/default.pgo, the profile Go optimizes pslab with (make figures + two predict sweeps)"
	@echo "make fuzz           run every parser fuzz target for FUZZTIME each (default 1m), one after another"
	@echo "make sample-tf-timeline  re-record datasets/samples/tf-timeline/ (a real loopback testbed run) for the README example"

figures:
	$(PSLAB) run

report:
	$(PSLAB) report -o report/

test:
	$(GO) test ./...

# The quick local loop: experiments whose recorded run time is unknown or
# above 0.5 s are not run but have their golden checks evaluated on their
# recorded results in figures/, and the heaviest statistical, corpus,
# browser, limits and multi-process tests shrink or skip (grep
# testing.Short). CI runs the full suite (make test). Its cost, clean test
# cache and warm build cache, is mostly linking the 40 test binaries (about
# 13 CPU-s; running them is about 9, the go command about 2.5), so three
# settings cut it (measured on a 2-core host, 2026-11-28):
# - CGO_ENABLED=0 (pslab has no cgo code; the binaries then link without
#   runtime/cgo): 36.7 -> 33.7 CPU-s (3 A/B pairs). The first run after
#   a cgo build (make test) recompiles what depends on cgo once, about
#   120 CPU-s (a fresh GOCACHE: the tests' build with cgo 457 CPU-s, then
#   without it 137, against 16 for a warm build without it).
# - GOGC=400: the go command, linker and tests collect garbage a quarter as
#   often. 41.1/37.8 against 45.3/42.7 at GOGC=100; GC off was 45.2 (the
#   kernel then pays for the memory), 1000 no better than 400.
# - Scratch on tmpfs where there is one: GOTMPDIR and TMPDIR take the
#   770 MB of test binaries and the tests' files (on ext4, creating their
#   inodes alone took about 2 CPU-s). 33.1/32.7 against 37.3/35.7 CPU-s.
# Each alone now saves 1.1-2.5 CPU-s. -ldflags=-w (no DWARF) saved 0.45-0.8
# CPU-s of linking in two runs, within the noise of the whole; not used.
# Result: 24.5 CPU-s median (5 A/B pairs, 24.2-25.2), 12.8 s wall, 0.85x
# [0.84, 0.87] the suite before cmd/pslab's hostile-input corpus watched
# the repository instead of walking it twice per case (go test hashed every
# entry those walks touched, for its test cache); 25.4-25.6 with a busy
# loop on the other core. Plain go test -short ./... (cgo, GOGC=100, /tmp
# on ext4): 29.1-30.4.
SHM := $(wildcard /dev/shm)
test-short:
	CGO_ENABLED=0 GOGC=400 $(if $(SHM),GOTMPDIR=$(SHM) TMPDIR=$(SHM)) $(GO) test -short ./...

# Benchmarks build with the profile pslab itself is built with (go build
# and go run pick cmd/pslab/default.pgo up on their own; go test does not),
# so they measure the code as it runs in pslab.
PGO := $(CURDIR)/cmd/pslab/default.pgo
bench:
	$(GO) test -pgo=$(PGO) -run '^$$' -bench . -benchmem ./...

# The PGO profile: CPU profiles of what users run most, `pslab run` (every
# experiment, as make figures) and predict's 64-node × 8-GPU sweeps in ASP
# and BSP (converged estimates, predict's default: -max-events is raised to
# what 64 nodes need; 4e8 refused them once predict stopped defaulting to
# the paper procedure), merged. Collected from a binary built without a
# profile.
PGO_PREDICT := predict datasets/byo/kineto-hta-rank0.arrow -bandwidth 10Gbps -workers 1..64 -gpus-per-node 8 -max-events 4e9
pgo:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf $$tmp $(PGO).tmp' EXIT; \
	$(GO) build -pgo=off -o $$tmp/pslab ./cmd/pslab; \
	$$tmp/pslab run -cpuprofile $$tmp/run.pprof >/dev/null; \
	$$tmp/pslab $(PGO_PREDICT) -sync asp -cpuprofile $$tmp/asp.pprof >/dev/null; \
	$$tmp/pslab $(PGO_PREDICT) -sync bsp -cpuprofile $$tmp/bsp.pprof >/dev/null; \
	$(GO) tool pprof -proto $$tmp/run.pprof $$tmp/asp.pprof $$tmp/bsp.pprof > $(PGO).tmp; \
	mv $(PGO).tmp $(PGO); echo "wrote $(PGO)"

datasets:
	$(PSLAB) datasets

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Every fuzz target (each parser's, and FuzzRunTrace's hostile traces
# through the simulator), one after another (seed corpora in each
# package's testdata/fuzz/<target>/). FUZZTIME is per target.
FUZZTIME ?= 1m
FUZZMINIMIZETIME ?= 5s
# Found, not listed (a hand-kept list had left out FuzzTCPCounters):
# package:FuzzName for every func Fuzz* in a _test.go file.
FUZZ_TARGETS := $(shell grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' engine cmd | sed -E 's|^(.*)/[^/]*:func (Fuzz.*)|./\1:\2|' | sort)

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; echo "== $$fn $$pkg ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg; \
	done

update-golden:
	$(GO) test ./engine/kinds -run TestExperiments -update

# Sharded runs on a real Slurm (scripts/slurm/test.sh; not part of make
# test): as root, installs slurm-wlm and munge when missing, starts munged,
# slurmctld and slurmd for this node in a temporary directory, runs every
# experiment and a predict sweep as 3-shard job arrays with dependent merge
# jobs, compares with single runs, and stops and removes everything on exit.
# EXPERIMENTS="experiments/icpe20/fig23.toml ..." runs a subset.
.PHONY: slurm-test
slurm-test:
	scripts/slurm/test.sh

# Real parameter-server training over gRPC on real TCP (engine/testbed):
# `make testbed` measures every configuration of datasets/testbed/configs.toml
# into datasets/testbed/<name>/ (6-12 h under the effect-based rules of
# engine/testbed/doc.go, resumable); `make testbed ONLY=<name>`
# measures one. As root with iproute2 it builds network namespaces shaped by
# tc htb (removed on exit; leftovers: scripts/netns-clean.sh); otherwise it
# falls back to loopback with token buckets. The runs' timeline.json files
# are not committed; `make testbed-timelines` writes them from trace.arrow.
.PHONY: testbed
testbed:
	$(PSLAB) testbed run $(if $(ONLY),-only $(ONLY))

# Repeatability of the testbed (not part of `make test`, about 10 min):
# three configurations three times each at W = 1 and 4, the third run with a
# CPU hog on one core; prints the spread (target ≤ 5%, or the loaded run is
# flagged host_limited).
.PHONY: testbed-repeat
testbed-repeat:
	$(PSLAB) testbed repeat -only resnet18-ordered-tic,alexnet-b512-mux,resnet50-mux -n 3 -workers 1,4

# Every committed testbed point judged (dilation sensitivity, CI over
# repetitions, modes, limits); fails unless every point holds.
.PHONY: testbed-timelines
testbed-timelines:
	$(PSLAB) testbed timeline $(patsubst %/trace.arrow,%,$(wildcard datasets/testbed/*/trace.arrow))

.PHONY: testbed-verify
testbed-verify:
	$(PSLAB) testbed verify datasets/testbed

# The real TensorFlow-style timeline the README's timeline example reads
# (datasets/samples/tf-timeline/, with measured.csv and README.md): a
# 20-step 1-worker testbed run on loopback, PS and worker as two processes,
# with alexnet-b256-mux's job flags (a few seconds, no root). The timeline
# is a measurement, so it differs from run to run.
.PHONY: sample-tf-timeline
sample-tf-timeline:
	scripts/sample-tf-timeline.sh
