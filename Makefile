# pslab: the two commands a user needs are `make figures` and `make test`.
GO ?= go
PSLAB := $(GO) run ./cmd/pslab

.PHONY: figures test bench datasets lint update-golden help fuzz

help:
	@echo "make figures        run every experiment, write figures/<paper>/<name>.{svg,png,arrow}"
	@echo "make test           go test ./... (unit tests and every experiment's golden checks)"
	@echo "make bench          benchmarks of the hot paths (simulator, MVA, scheduler, ...)"
	@echo "make datasets       rebuild every Arrow dataset under datasets/ from its source"
	@echo "make lint           gofmt and go vet"
	@echo "make update-golden  rewrite regression values in golden/ (never paper or derived values)"
	@echo "make fuzz           run every parser fuzz target for FUZZTIME each (default 1m), one after another"

figures:
	$(PSLAB) run

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

# Real parameter-server training over gRPC on real TCP (engine/testbed):
# `make testbed` measures every configuration of datasets/testbed/configs.toml
# into datasets/testbed/<name>/ (about 35 min); `make testbed ONLY=<name>`
# measures one. As root with iproute2 it builds network namespaces shaped by
# tc tbf (removed on exit; leftovers: scripts/netns-clean.sh); otherwise it
# falls back to loopback with token buckets.
.PHONY: testbed
testbed:
	$(PSLAB) testbed run $(if $(ONLY),-only $(ONLY))
