# pslab: the two commands a user needs are `make figures` and `make test`.
GO ?= go
PSLAB := $(GO) run ./cmd/pslab

.PHONY: figures report test bench datasets lint update-golden help fuzz

help:
	@echo "make figures        run every experiment, write figures/<paper>/<name>.{svg,png,arrow}"
	@echo "make report         HTML report of every experiment, dataset and model in report/ (from make figures' results)"
	@echo "make test           go test ./... (unit tests and every experiment's golden checks)"
	@echo "make bench          benchmarks of the hot paths (simulator, MVA, scheduler, ...)"
	@echo "make datasets       rebuild every Arrow dataset under datasets/ from its source"
	@echo "make lint           gofmt and go vet"
	@echo "make update-golden  rewrite regression values in golden/ (never paper or derived values)"
	@echo "make slurm-test     (root) sharded run + predict sweep on a real one-node Slurm, merged, vs one run"
	@echo "make fuzz           run every parser fuzz target for FUZZTIME each (default 1m), one after another"

figures:
	$(PSLAB) run

report:
	$(PSLAB) report -o report/

test:
	$(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

datasets:
	$(PSLAB) datasets

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Every parser's fuzz target, one after another (seed corpora in each
# package's testdata/fuzz/<target>/). FUZZTIME is per target.
FUZZTIME ?= 1m
FUZZMINIMIZETIME ?= 5s
FUZZ_TARGETS := \
	./engine/zoo:FuzzParse \
	./engine/dataset:FuzzDecode \
	./engine/timeline:FuzzRead \
	./engine/timeline:FuzzScanValue \
	./engine/kineto:FuzzRead \
	./engine/importer:FuzzReadPhilly \
	./engine/importer:FuzzReadMeasured \
	./engine/experiment:FuzzParse \
	./engine/golden:FuzzParse \
	./engine/testbed:FuzzLoadConfigs

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
# into datasets/testbed/<name>/ (about 35 min); `make testbed ONLY=<name>`
# measures one. As root with iproute2 it builds network namespaces shaped by
# tc tbf (removed on exit; leftovers: scripts/netns-clean.sh); otherwise it
# falls back to loopback with token buckets.
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

# Artifact accounting of every committed testbed dataset; fails if any breaks
# the budget.
.PHONY: testbed-verify
testbed-verify:
	$(PSLAB) testbed verify datasets/testbed
