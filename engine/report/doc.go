// Package report builds pslab's notebook: a static, self-contained HTML
// site of every experiment, dataset and model, from the results `pslab run`
// wrote (figures/<paper>/<name>.{svg,arrow,run.json}), the experiment files
// (experiments/), the golden checks (golden/, the only home of deviation
// reasons) and the datasets (datasets/). It does not run experiments: the
// report shows exactly what `make figures` produced, with every golden
// check evaluated against the recorded values.
//
// The site has an index (status per paper, check counts, a filter by paper
// and status), one page per experiment (claims, inline SVG figure, checks
// table, deviation reasons, the experiment file, input datasets with
// provenance, run time, the command that reproduces it), one page per
// dataset (schema with units, provenance, the first rows, downloads as
// Arrow, Parquet and CSV) and a model-accuracy page (every model against
// every measured testbed configuration, coloured against the paper's bound).
// No page loads anything from the network; pages open from file://.
//
// Build is byte-stable (the same inputs give the same bytes: sorted maps,
// no timestamps) and atomic: the site is written to a temporary directory
// beside the output and renamed into place; on any error (a missing result
// file, a golden file that does not parse) nothing is left behind.
package report
