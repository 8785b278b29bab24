// Package importer converts external CSV data into pslab datasets: a
// user's own throughput measurements (ReadMeasured, the "measured-csv"
// format of `pslab import`, "Bring your own hardware"), the Philly
// cluster trace (ReadPhilly, rebuilt by `pslab datasets` into
// datasets/philly/jobs.arrow) and TensorFlow's published single-node
// benchmark tables (ReadTFBenchmarks, rebuilt into
// datasets/tf-benchmarks/single-node.arrow).
//
// All read one CSV record at a time (bounded memory apart from the output
// table), reject malformed input with "file:line: column: problem", and
// leave provenance to the caller, who knows the source and licence.
//
// # Measured CSV
//
// A header row names dataset.MeasurementSchema columns; workers and
// throughput are required, the rest optional with defaults from
// MeasuredOptions (model, batch and sync have no default: a missing one
// is an error, because a throughput without them cannot be compared with
// any model). Units are declared in the header, "throughput[examples/s]",
// or in a unit row right after the header whose non-empty cells are all
// bracketed:
//
//	workers,ps,throughput,throughput_std,window
//	,,[images/min],[images/min],[MiB]
//	1,1,2400,30,28
//
// Decisions: throughput, throughput_std and window must declare a unit
// (a missing per-minute or KiB would silently scale the data); batch may
// omit "examples"; "images" and "samples" are synonyms of examples;
// dimensionless columns (workers, ps, steps) must not carry a unit; the
// values are converted to examples/s and bytes. steps defaults to 1 when
// neither a column nor MeasuredOptions.Steps gives it, because the schema
// needs a positive count.
//
// Batch per GPU and per node (issue 26): the schema's batch is the
// examples of one worker node's step, all its GPUs together, while pslab
// predict's -batch is per GPU. So that no number is read in the wrong
// sense, a CSV gives the batch under one of three names: batch_per_node
// (or batch, the old name, kept so that old files read as before: per
// node) or batch_per_gpu, multiplied by G from a gpus_per_node column or
// MeasuredOptions.GPUsPerNode (an error when neither states it). Two of
// them in one header are an error. G is not a schema column (the schema
// is shared by every measured dataset): it is recorded in the provenance
// as ExtraGPUsPerNode, one G per file (rows that differ are an error
// naming the line), and predict.SelectMeasured refuses a prediction with
// another G. A file without any G states none and matches any prediction
// with the same per-node batch.
//
// Cluster defaults: a file without a ps column takes MeasuredOptions.Servers
// (0: 1), or with MeasuredOptions.Colocated (one PS shard per node, pslab
// predict -colocate) the row's worker count, recorded as ExtraColocated. pslab
// predict -measured fills every default from the prediction (model, sync,
// batch, G, PS count, colocation, transport, order); pslab import
// measured-csv from the same flags predict takes (-model, -sync, -batch
// per GPU, -gpus-per-node, -ps, -colocate, -transport, -order).
//
// # Philly
//
// The Philly trace shipped in ../shared/datasets/philly/philly.csv
// (adaptdl's preprocessing of Microsoft's release) has the header
// timestamp,duration,num_gpus,gpu_time,cluster. Decisions: timestamps have
// no zone in the file and are read as UTC; the stored value is seconds
// since 1970 (only differences matter to a scheduler). gpu_time is checked
// to equal duration × num_gpus, which holds for every row of the file, so
// shifted columns are caught. The file has 82,247 jobs (the shared README
// says 82,248; the file's last line is blank).
//
// # TensorFlow benchmarks
//
// ../shared/datasets/tf-benchmarks-2017/tf-cnn-benchmarks-single-node.csv
// holds the tables of TensorFlow's "Benchmarks" page (May 2017): the
// images/s of a whole node with 1, 2, 4 and 8 GPUs. Decisions: the column
// images_per_s becomes throughput in examples/s (one example is one
// image, as in the measured CSV); batch_per_gpu and gpus keep their names
// so that the per-GPU batch is never read as a per-node one; a throughput
// of 0 or below is an error naming the line (the page's N/A cells are
// absent rows, never zeros); local_parameter_device must agree with
// variable_update (cpu or gpu for parameter_server, n/a otherwise); a
// configuration may appear once. The file has 127 rows, 104 of them
// parameter_server with the variables on the host CPU.
package importer
