// Package report builds pslab's notebook: a static, self-contained HTML
// site of every experiment, dataset and model, from the results `pslab run`
// wrote (figures/<paper>/<name>.{svg,arrow,run.json}), the experiment files
// (experiments/), the golden checks (golden/, the only home of deviation
// reasons) and the datasets (datasets/). It does not run experiments: the
// report shows exactly what `make figures` produced, with every golden
// check evaluated against the recorded values.
//
// The site has an index (status per paper, check counts, a filter by paper
// and status); one page per experiment (claims, the SVG figure inline and
// linked to open full size, checks table, deviation reasons, the
// experiment file, input datasets with provenance, run time, the command
// that reproduces it); one page per dataset (a small plot of what it
// holds, schema with units and what each column means, provenance, every
// other metadata key grouped and named (keys.go), the first rows, its
// SHA-256, downloads); and a model-accuracy page (every model against
// every measured testbed configuration, whether the testbed found the
// configuration host-limited, each cell shaded by the paper bounds on its
// model, the experiment's summaries in the table's labelled footer). No
// page loads anything from the network; pages open from file://.
//
// Downloads are written once: a dataset's Arrow file is linked where it is
// in the repository (a path relative to the site), and the site holds its
// Parquet form and its CSV compressed with gzip, the bytes of `pslab
// export`, reused from the report being replaced when the Arrow file's
// SHA-256 is unchanged. Build streams them to disk a few datasets at a
// time (arrowBudget), so its memory does not grow with the datasets.
//
// Build is byte-stable (the same inputs and output location give the same
// bytes: sorted maps, no timestamps, gzip without name or time) and
// atomic: the site is written to a temporary directory beside the output
// and renamed into place; on any error (a missing result file, a golden
// file that does not parse) nothing is left behind.
package report
