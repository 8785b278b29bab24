package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"pslab/engine/predict"
	"pslab/engine/shard"
)

// predictShard is -shard for pslab predict, and the parts pslab merge
// hands back to it. The sweep's points are (bandwidth, W) in command-line
// order; shard i of N predicts the points k with k mod N = i, every model
// at each (engine/shard WorkersAt), and writes them as predict.gob
// instead of the outputs. pslab merge reruns the same command line with
// the shards' parts in ctx: it predicts nothing, joins the parts and
// writes the outputs an unsharded run writes.
type predictShard struct {
	shardFlags
	parts   []shard.Part // merge: every shard's parts; nil otherwise
	merging bool
	workers []int // the sweep's worker counts, seen by points
	stderr  io.Writer
}

// mergedParts is the context key of the parts pslab merge passes to
// predictThroughput.
type mergedParts struct{}

// withParts returns ctx carrying the joined shards' parts for predict.
func withParts(ctx context.Context, parts []shard.Part) context.Context {
	return context.WithValue(ctx, mergedParts{}, parts)
}

// register adds -shard and -shard-dir to fs and takes merge's parts from
// ctx.
func (s *predictShard) register(ctx context.Context, fs *flag.FlagSet, args []string, stderr io.Writer) {
	s.shardFlags.register(fs, args)
	s.parts, s.merging = ctx.Value(mergedParts{}).([]shard.Part)
	s.stderr = stderr
}

// points returns the worker counts to predict at bandwidth j of the
// sweep: all of workers unsharded, the shard's own (nil for none) with
// -shard, and none when merging.
func (s *predictShard) points(j int, workers []int) []int {
	s.workers = workers
	switch {
	case s.merging:
		return nil
	case s.spec.Enabled():
		return s.spec.WorkersAt(j, workers)
	}
	return workers
}

// finish takes the predictions at each bandwidth of the sweep (nil where
// points gave none). Unsharded it returns them; a shard writes its parts
// and metadata and returns nil (no outputs); merging returns the joined
// parts of every shard.
func (s *predictShard) finish(runs []*predict.Prediction) ([]*predict.Prediction, error) {
	switch {
	case s.merging:
		return shard.JoinPredictions(len(runs), s.workers, s.parts)
	case !s.spec.Enabled():
		return runs, nil
	}
	if err := shard.Reset(s.dir, shard.PartsName); err != nil {
		return nil, fmt.Errorf("predict: -shard %s: %w", s.spec, err)
	}
	m := s.meta("predict")
	m.Total = len(runs) * len(s.workers)
	var parts []shard.Part
	for j, p := range runs {
		if p == nil {
			continue
		}
		parts = append(parts, shard.Part{Bandwidth: j, Prediction: p})
		for _, w := range p.Workers {
			m.Items = append(m.Items, fmt.Sprintf("bandwidth %d, W = %d", j, w))
		}
	}
	if err := shard.WriteParts(s.dir, parts); err != nil {
		return nil, fmt.Errorf("predict: -shard %s: %w", s.spec, err)
	}
	if err := m.Write(s.dir); err != nil {
		return nil, fmt.Errorf("predict: -shard %s: %w", s.spec, err)
	}
	fmt.Fprintf(s.stderr, "shard %s: %d of %d sweep points in %s\n", s.spec, len(m.Items), m.Total, s.dir)
	return nil, nil
}
