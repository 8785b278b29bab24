// Package shard splits a pslab run or sweep into N deterministic parts that
// independent processes (a Slurm job array, a Kubernetes Indexed Job) do
// one each, and joins the parts into the bytes of one unsharded run.
//
// # Partition
//
// A Spec is shard i of N (0 ≤ i < N). Shard i owns item k of a list when
// k mod N = i: round robin, so neighbouring items of similar cost (the
// experiments of one paper, the large worker counts of a sweep) spread over
// the shards. The list is the experiments sorted by id (`pslab run`) or the
// (bandwidth, workers) points of a sweep in their command-line order
// (`pslab predict`, WorkersAt). A shard may own nothing.
//
// # Shard directories and metadata
//
// Shard i of N writes under <base>/shard-<i>-of-<N>/ (Spec.Dir) and last
// of all its Meta, shard.json, atomically: a directory without shard.json
// is an unfinished shard. Meta records the command line without -shard and
// -shard-dir (Normalise), the shard, the VCS revision of the binary
// (Revision), the items it did out of how many, and its output files with
// their size and SHA-256.
//
// # Merging: a shard is untrusted input
//
// A shard comes from another machine, so nothing in it chooses where
// merge writes. ReadMeta (ParseMeta) refuses a malformed shard.json naming
// the field at fault: every output path must be figures/<file>, clean,
// relative, without ".." or hidden names (CheckPath), listed once. Check
// refuses a set of shards that cannot be joined, naming the shard: a
// missing or duplicated index, a different count, command line or
// revision, an item or a file done twice, paths that collide (equal but
// for letter case, a file in one shard and a directory in another), items
// that do not add up to the total. Verify reads every listed file within
// its shard's directory (no symbolic links) and checks its size and
// SHA-256. MergeFiles writes the files into the output directory the
// caller gives (never Meta.Root, a record only), and only after every
// shard verified: each file is staged as a temporary file, checked
// again, and renamed into place once all are staged, so a refused merge
// leaves the disk as it was.
//
// The package does no flag parsing beyond Parse and knows nothing of what
// the items are, except WorkersAt and JoinPredictions for predict's
// sweeps.
package shard
