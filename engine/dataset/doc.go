// Package dataset reads and writes pslab's datasets: uncompressed Apache
// Arrow IPC files that any Arrow reader opens.
//
// A Schema names typed columns (float64, int64, string, list<int32>) with
// units and value rules (finite, non-negative, one of a set of names). A
// Table holds the columns of one file as Go slices plus its Provenance,
// which is stored in the Arrow schema metadata: where the data came from,
// its licence, the command that produced it, units and notes. A column's
// unit is also its Arrow field metadata "unit" (and a result column's axis
// label its "label"), where Arrow readers look for it.
//
// Read validates a file against a Schema and reports the file, column and
// row of the first bad value (a NaN, a negative duration, an unknown
// resource name) or the column that is missing or has the wrong type.
// Write builds the file in a temporary file beside the target and renames it
// into place, so a failed write never leaves a partial file, and the same
// table always produces the same bytes.
//
// The predefined schemas (Trace, Measurement, Result, Phases, Workload,
// Instance, Job) are the data model of DESIGN.md; reported paper tables
// declare their schema in their TOML source (see Reported).
package dataset
