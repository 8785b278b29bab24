package main

// knownFailures are cases that fail on the current code, with the failure
// observed. They are run (except hangs, which would cost the whole timeout
// and leave a goroutine spinning) and skipped, not failed, so CI stays
// green while this list documents what is left to fix. Remove an entry
// when its case passes; the skip message says so.
var knownFailures = map[string]string{
	// Hangs would start "hang" and are not run unless PSLAB_BADINPUTS_ALL=1;
	// panics would start "panic". None is left.

	// Corrupted data read as valid is none either: pslab's Arrow files
	// carry a content digest (dataset.DigestKey).
}
