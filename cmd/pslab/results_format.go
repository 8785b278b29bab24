package main

import (
	"io"
	"path/filepath"
	"strconv"

	"pslab/engine/experiment"
	"pslab/engine/golden"
)

// resultDoc is the document of `pslab run|check -format json`.
type resultDoc struct {
	Experiments []resultExperiment `json:"experiments"`
	Summary     resultSummary      `json:"summary"`
}

// resultSummary counts the outcomes, as the text output's last line.
type resultSummary struct {
	Experiments  int `json:"experiments"`
	Checks       int `json:"checks"`
	Deviations   int `json:"deviations"`
	Inconclusive int `json:"inconclusive"`
	Failed       int `json:"failed"`
}

// resultExperiment is one experiment's outcome.
type resultExperiment struct {
	ID       string        `json:"id"` // "" when the file cannot be read
	Paper    string        `json:"paper"`
	Kind     string        `json:"kind"`
	Status   string        `json:"status"` // the spec's status label
	File     string        `json:"file"`   // relative to -root
	OK       bool          `json:"ok"`     // it ran and no check failed
	Error    *string       `json:"error"`  // null when it ran
	ElapsedS float64       `json:"elapsed_s"`
	Checks   []resultCheck `json:"checks"`
}

// resultCheck is one golden check's outcome. Got is null when the result
// has no such value; Lo and Hi, the value's 95% interval, are null except
// for interval checks; Verdict is holds, misses or inconclusive for an
// interval check, else null.
type resultCheck struct {
	Check    string   `json:"check"` // the metric, series@x or series[category]
	Pass     bool     `json:"pass"`
	Deviates bool     `json:"deviation"` // a recorded deviation: a paper claim missed, reported not failed
	Verdict  *string  `json:"verdict"`
	Got      *float64 `json:"got"`
	Lo       *float64 `json:"lo"`
	Hi       *float64 `json:"hi"`
	Op       string   `json:"op"`
	Expected float64  `json:"expected"`
	Allowed  float64  `json:"allowed"` // the allowed distance d (absolute)
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}

// resultsDoc builds the document of outcomes outs of the files paths
// (in the same order) under root.
func resultsDoc(root string, paths []string, outs []experiment.Outcome) resultDoc {
	doc := resultDoc{Experiments: []resultExperiment{}}
	for i, o := range outs {
		e := resultExperiment{OK: !o.Failed(), ElapsedS: o.Elapsed.Seconds(), Checks: []resultCheck{}}
		if i < len(paths) {
			e.File = paths[i]
			if rel, err := filepath.Rel(root, paths[i]); err == nil {
				e.File = rel
			}
			e.File = filepath.ToSlash(e.File)
		}
		if s := o.Spec; s != nil {
			e.ID, e.Paper, e.Kind, e.Status = s.ID, s.Paper, s.Kind, s.Status
		}
		if o.Err != nil {
			msg := o.Err.Error()
			e.Error = &msg
		}
		for _, c := range o.Checks {
			rc := resultCheck{Check: c.Check.Name(), Pass: c.Pass, Deviates: c.Deviates, Op: c.Check.Op,
				Expected: c.Check.Expected, Allowed: c.Check.Allowed(), Source: c.Check.Source, Message: c.Message}
			if c.Found {
				rc.Got = num(c.Got)
			}
			if c.Verdict != "" {
				v := c.Verdict
				rc.Verdict, rc.Lo, rc.Hi = &v, num(c.Lo), num(c.Hi)
			}
			e.Checks = append(e.Checks, rc)
			doc.Summary.Checks++
			switch {
			case !c.Pass:
			case c.Deviates:
				doc.Summary.Deviations++
			case c.Verdict == golden.Inconclusive:
				doc.Summary.Inconclusive++
			}
		}
		if o.Failed() {
			doc.Summary.Failed++
		}
		doc.Experiments = append(doc.Experiments, e)
	}
	doc.Summary.Experiments = len(outs)
	return doc
}

// resultsHeader is the header of `pslab run|check -format csv`: one row
// per check, and one row with an empty check for an experiment that did
// not run (its error in message).
var resultsHeader = []string{"id", "paper", "file", "check", "pass", "deviation", "verdict", "got", "lo", "hi",
	"op", "expected", "allowed", "source", "message"}

// writeResults prints the outcomes as JSON or CSV.
func writeResults(w io.Writer, format string, doc resultDoc) error {
	if format == "json" {
		return writeJSON(w, doc)
	}
	var rows [][]string
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, e := range doc.Experiments {
		if e.Error != nil {
			rows = append(rows, []string{e.ID, e.Paper, e.File, "", "false", "false", "", "", "", "", "", "", "", "", *e.Error})
		}
		for _, c := range e.Checks {
			verdict := ""
			if c.Verdict != nil {
				verdict = *c.Verdict
			}
			rows = append(rows, []string{e.ID, e.Paper, e.File, c.Check, strconv.FormatBool(c.Pass), strconv.FormatBool(c.Deviates),
				verdict, cell(c.Got), cell(c.Lo), cell(c.Hi), c.Op, g(c.Expected), g(c.Allowed), c.Source, c.Message})
		}
	}
	return writeCSV(w, resultsHeader, rows)
}
