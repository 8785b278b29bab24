package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"pslab/engine/experiment"
	"pslab/engine/shard"
)

// shardFlags are -shard and -shard-dir, shared by pslab run and predict
// (engine/shard partitions the work; pslab merge joins the shards).
type shardFlags struct {
	raw  string // -shard as given
	base string // -shard-dir
	spec shard.Spec
	dir  string // spec.Dir(base), once parsed
	args []string
	// items are the ids of the experiments of this shard, in run order.
	items []string
}

// register adds -shard and -shard-dir to fs; args is the command line the
// shard records (normalised).
func (s *shardFlags) register(fs *flag.FlagSet, args []string) {
	s.args = args
	fs.StringVar(&s.raw, "shard", "", "do shard i/N of the work (0 ≤ i < N, e.g. ${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}),\n"+
		"writing it under -shard-dir instead of the usual outputs; join the N shards with 'pslab merge'")
	fs.StringVar(&s.base, "shard-dir", "shards", "with -shard: the directory of the shard directories shard-<i>-of-<N>")
}

// parse validates -shard once the flags are parsed. A bad value is a
// usage error naming the flag.
func (s *shardFlags) parse(cmd string) error {
	if s.raw == "" {
		return nil
	}
	sp, err := shard.Parse(s.raw)
	if err != nil {
		return usageError{fmt.Errorf("%s: -shard %w", cmd, err)}
	}
	s.spec, s.dir = sp, sp.Dir(s.base)
	return nil
}

// meta is the shard's metadata so far: command line, shard and revision.
func (s *shardFlags) meta(cmd string) *shard.Meta {
	rev, mod := shard.Revision()
	return &shard.Meta{Command: append([]string{cmd}, shard.Normalise(s.args)...),
		Index: s.spec.Index, Count: s.spec.Count, Revision: rev, Modified: mod, Items: []string{}, Files: []shard.File{}}
}

// experiments selects the experiment files of this shard (round robin over
// every experiment sorted by id) and sends the run's figures to the shard
// directory, cleared of a previous attempt. Without -shard it returns
// paths unchanged.
func (s *shardFlags) experiments(paths []string, opt *experiment.Options) ([]string, error) {
	if !s.spec.Enabled() {
		return paths, nil
	}
	ids := map[string]string{}
	for _, p := range paths {
		ids[p] = filepath.ToSlash(p) // an unreadable spec fails in its shard, under its path
		if sp, err := experiment.Load(p); err == nil {
			ids[p] = sp.ID
		}
	}
	sorted := append([]string(nil), paths...)
	sort.SliceStable(sorted, func(i, j int) bool { return ids[sorted[i]] < ids[sorted[j]] })
	if err := shard.Reset(s.dir, "figures"); err != nil {
		return nil, fmt.Errorf("run: -shard %s: %w", s.spec, err)
	}
	opt.Out = s.dir
	mine := shard.Select(s.spec, sorted)
	for _, p := range mine {
		s.items = append(s.items, ids[p])
	}
	return mine, nil
}

// finishRun writes the shard's metadata after its experiments ran: the
// experiments it did out of total, the failed ones and its output files.
func (s *shardFlags) finishRun(root string, total int, outs []experiment.Outcome, stderr io.Writer) error {
	if !s.spec.Enabled() {
		return nil
	}
	m := s.meta("run")
	m.Root, m.Total = root, total
	m.Items = append(m.Items, s.items...)
	for i, o := range outs { // outs are in the order of s.items
		if o.Failed() {
			m.Failed = append(m.Failed, s.items[i])
		}
	}
	files, err := shard.ListFiles(s.dir, "figures")
	if err != nil {
		return fmt.Errorf("run: -shard %s: %w", s.spec, err)
	}
	m.Files = files
	if err := m.Write(s.dir); err != nil {
		return fmt.Errorf("run: -shard %s: %w", s.spec, err)
	}
	fmt.Fprintf(stderr, "shard %s: %d of %d experiments, %d files in %s\n", s.spec, len(outs), total, len(files), s.dir)
	return nil
}
