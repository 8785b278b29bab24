package icpe20

import (
	"fmt"
	"slices"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// Bounded work (the icpe20-throughput part of issue 28): every case's
// simulator events, trace synthesis, coarse models and result lines are
// estimated together before any case is synthesized in full or
// simulated, so that [limits] events and model_work bound the whole
// experiment, not each case (each case used to be checked alone).

// tputLinesPerPoint and tputLinesPerCase bound the result lines of a case:
// per worker count its simulator, Lin, Cynthia, halved-Cynthia and measured
// points and their notes and error metrics; per case its metrics and
// notes.
const (
	tputLinesPerPoint = 12
	tputLinesPerCase  = 40
)

// checkWork estimates the work of every case at the worker counts ws and
// refuses it above the limits; it returns the recorded traces it read
// (by case index) for run to use. A synthesized case's ops per step are
// counted on a one-step synthesis, before its profile_steps are.
func (p *tputParams) checkWork(env *experiment.Env, ws []int, cache map[string]*zoo.Profile, bounds *dataset.Table) (map[int]*trace.Trace, error) {
	recorded := map[int]*trace.Trace{}
	var events, units, rows float64
	profileSteps := p.ProfileSteps
	if profileSteps <= 0 {
		profileSteps = zoo.DefaultSteps
	}
	boundRows := 0
	if bounds != nil {
		boundRows = bounds.Len()
	}
	for i := range p.Cases {
		c := &p.Cases[i]
		var ops, traceOps float64
		if c.Trace != "" {
			tr, err := p.trace(env, c, cache)
			if err != nil {
				return nil, err
			}
			recorded[i] = tr
			ops, traceOps = float64(len(tr.Steps[0].Ops)), float64(tputTraceOps(tr))
		} else {
			tr, err := p.traceSteps(env, c, cache, 1)
			if err != nil {
				return nil, err
			}
			ops = float64(len(tr.Steps[0].Ops))
			traceOps = ops * float64(profileSteps)
			units += experiment.SynthOpWork * (ops + traceOps)
		}
		units += traceOps + float64(len(ws)*(2+boundRows)) + 10*float64(ws[len(ws)-1]) // FromTrace, Cynthia, bounds, Lin
		rows += tputLinesPerPoint*float64(len(ws)) + tputLinesPerCase
		if !slices.Contains(c.Series, "simulator") && !slices.Contains(c.Series, "events") {
			continue
		}
		if c.Estimate == "converged" {
			for _, w := range ws { // the least a converged estimate runs
				events += sim.DefaultReplications * experiment.SimEvents(int(ops), convergedSteps(c.Steps, w), w)
			}
			continue
		}
		events += experiment.SimEvents(int(ops), c.Steps, ws...)
	}
	rows += 14*float64(len(p.Compare)) + 2*float64(len(p.Reported)) + float64(len(p.Notes)) + 2
	what := fmt.Sprintf("icpe20-throughput: %d cases × %d worker counts", len(p.Cases), len(ws))
	if err := env.CheckEvents(events, what+" × steps"); err != nil {
		return nil, err
	}
	if err := env.CheckRows([]string{"params", "case"}, units, rows, what); err != nil {
		return nil, err
	}
	return recorded, nil
}

// tputTraceOps is the number of ops of tr.
func tputTraceOps(tr *trace.Trace) int {
	n := 0
	for _, st := range tr.Steps {
		n += len(st.Ops)
	}
	return n
}

// convergedSteps is a converged estimate's initial replication length at
// W workers: steps, or sim.InitialSteps(W) when steps is 0.
func convergedSteps(steps, w int) int {
	if steps > 0 {
		return steps
	}
	return sim.InitialSteps(w)
}
