package main

// knownFailures are cases that fail on the current code, with the failure
// observed. They are run (except hangs, which would cost the whole timeout
// and leave a goroutine spinning) and skipped, not failed, so CI stays
// green while this list documents what is left to fix. Remove an entry
// when its case passes; the skip message says so.
var knownFailures = map[string]string{
	// Hangs would start "hang" and are not run unless PSLAB_BADINPUTS_ALL=1;
	// panics would start "panic". None is left.

	// Accepted: exit 0, and pslab run writes figures/, import writes -o.
	"experiment/params-batch-huge": `[params.reported_profile] batch = 9223372036854775807 is accepted (no upper bound); ` +
		`the run succeeds and writes figures/`,
	"experiment/inputs-unknown-name": `an [inputs] name the kind never reads (measurd, a typo of measured) is ignored; ` +
		`the run succeeds, without measurements, and writes figures/`,
	"experiment/dup-id-two-files": `two files with the id mascots18-dupid (experiments/ and copy/) both run and both write ` +
		`figures/mascots18/dupid.* (concurrently with -j > 1); nothing names the duplicate id`,
	"experiment/same-file-twice":   `an experiment given twice runs twice and writes its figures twice; no error`,
	"kineto/input-dims-string":     `"Input Dims" given as a string is ignored: the import succeeds with 0 parameter bytes for aten::linear`,
	"kineto/input-dims-huge":       `Input Dims 1e11 × 1e11 overflow int64 silently: the import succeeds with 40 parameter bytes for aten::linear`,
	"testbed/calibration-nan":      `[calibration] step_cv = nan is accepted: -dry prints "step CV NaN%" and -9223372036854775808 steps needed (int of NaN), exit 0`,
	"testbed/calibration-negative": `[calibration] rtt_us = -93 is accepted: -dry prints "RTT -93 µs", exit 0`,
	"testbed/flag-network-unknown": `-network carrier-pigeon is accepted with -dry (only a real run checks it), exit 0`,

	// Corrupted data read as valid: Arrow IPC files carry no checksum.
	"arrow/flipped-at-0.1": `byte 309 flipped (in the schema metadata key unit.activation_bytes): the file reads ` +
		`without error and predict succeeds`,
	"arrow/flipped-at-0.25": `byte 774 flipped (in the schema's flatbuffer, at field activation_bytes): the file reads ` +
		`without error and predict succeeds`,
	"arrow/flipped-at-0.6": `byte 1858 flipped (in the forward_s data buffer): fc1's forward time reads ` +
		`0.001999999993548272 instead of 0.002 and predict succeeds on the corrupted profile`,

	// Wrong line.
	"experiment/syntax-unclosed-table": `for the unclosed header "[sweep" on line 14 the message names line 15 and field ` +
		`"inputs" (the next line and the previous table, as github.com/BurntSushi/toml reports it)`,
	"golden/expected-string": `for expected = "5.2" on line 4 (the first [[check]]) the message names line 10, the second check's expected`,
	"golden/second-check-bad": `for the bad second [[check]] (line 8) the message names line 2, the first [[check]]: ` +
		`golden.Parse locates every check's error at the key path "check" (the text does say check 1)`,

	// The message names an internal field or the value, not the flag (or not the file).
	"kineto/step-out-of-range":     `says "kineto: k.json: Options.Step 99, trace has 1 steps": the file and Options.Step, not -step`,
	"kineto/step-negative":         `says "kineto: negative Options.Batch 0 or Options.Step -1": neither the file nor -step`,
	"kineto/clock-unknown":         `says "kineto: Options.Clock "sundial" (want gpu, cpu or empty)": neither the file nor -clock`,
	"kineto/batch-negative":        `says "kineto: negative Options.Batch -5 or Options.Step 0": neither the file nor -batch`,
	"testbed/flag-only-unknown":    `says "testbed run: no configuration "nope" (have toy-mux)": the value, not -only`,
	"predict-flags/bandwidth-tiny": `-bandwidth 1e-300bps: says "op "conv0/down" ends at 1.6e+307 s, beyond int64 nanoseconds": the profile and an op, not -bandwidth`,
	"predict-flags/batch-huge":     `-batch 9223372036854775807: says "op "conv0/fwd" ends at 2.56e+15 s, beyond int64 nanoseconds": the profile and an op, not -batch`,
	"predict-flags/device-speed-tiny": `-device-speed 1e-300 passes the > 0 check; says "op "conv0/fwd" ends at 8.9e+297 s, beyond int64 ` +
		`nanoseconds": the profile and an op, not -device-speed`,
	"provision-flags/max-workers-negative": `says "cynthia: planner: MaxWorkers must be >= 0, got -5": MaxWorkers, not -max_workers`,
	"provision-flags/w-iter-nan":           `says "workload: cynthia: workload "profile": WIter must be finite and > 0, got NaN": the field WIter, not -w_iter`,
	"provision-flags/w-iter-negative":      `says "WIter must be finite and > 0, got -1e+10": the field WIter, in FLOP, not -w_iter -10 (GFLOP)`,
	"provision-flags/g-param-inf":          `says "GParam must be finite and >= 0, got +Inf": the field GParam, not -g_param`,
	"provision-flags/c-prof-negative":      `says "CProf must be finite and >= 0, got -1e+09": the field CProf, in FLOP/s, not -c_prof -1 (GFLOP/s)`,
	"provision-flags/b-prof-nan":           `says "BProf must be finite and >= 0, got NaN": the field BProf, not -b_prof`,
	"export-flags/format-unknown":          `says "export: format "xlsx" (want parquet or csv)": the value, not -format`,
	"import-flags/timeline-bandwidth-negative": `says "trace: negative bandwidth, window or overhead in metadata": the file, ` +
		`not -bandwidth, nor which of the three`,
	"import-flags/timeline-window-negative": `says "trace: negative bandwidth, window or overhead in metadata": the file, ` +
		`not -window, nor which of the three`,
	"import-flags/timeline-servers-negative": `says "trace: negative number of parameter servers -2": the file, not -servers`,
	"import-flags/measured-steps-negative":   `says "negative default steps, window or batch": the file, not -steps, nor which of the three`,
	"import-flags/measured-sync-unknown":     `says "no sync column and default sync "sometimes"": the file, not -sync`,
	"import-flags/measured-batch-negative":   `-batch -32: says "no batch column and no default batch (> 0 examples)": the file, not -batch`,
	"import-flags/measured-no-model":         `says "no model column and no default model": the file, not -model`,
}
