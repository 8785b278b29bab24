# pslab: the two commands a user needs are `make figures` and `make test`.
GO ?= go
PSLAB := $(GO) run ./cmd/pslab

.PHONY: figures test bench datasets lint update-golden help

help:
	@echo "make figures        run every experiment, write figures/<paper>/<name>.{svg,png,arrow}"
	@echo "make test           go test ./... (unit tests and every experiment's golden checks)"
	@echo "make bench          benchmarks of the hot paths (simulator, MVA, scheduler, ...)"
	@echo "make datasets       rebuild every Arrow dataset under datasets/ from its source"
	@echo "make lint           gofmt and go vet"
	@echo "make update-golden  rewrite regression values in golden/ (never paper or derived values)"

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

update-golden:
	$(GO) test ./engine/kinds -run TestExperiments -update
