package testbed

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/collection"
)

// TestByAddressThenReduce follows doc.go's recipe for a real cluster, in
// process over loopback TCP: start a PS, point workers at its address,
// keep their result files, then reduce them to datasets.
func TestByAddressThenReduce(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	jobFlags := []string{"-profile", "toy", "-device-speed", "20", "-bytes-scale", "0.001", "-window", "65536", "-conn-window", "65536"}
	run := func(workers int, files func(id int) string, trace bool) {
		pr, pw := io.Pipe()
		psDone := make(chan error, 1)
		psArgs := append([]string{"-listen", "127.0.0.1:0", "-workers", fmt.Sprint(workers)}, jobFlags...)
		if trace {
			psArgs = append(psArgs, "-tap")
		}
		go func() { psDone <- psMain(ctx, psArgs, pw, io.Discard); pw.Close() }()
		line, err := bufio.NewReader(pr).ReadString('\n')
		require.NoError(t, err)
		go io.Copy(io.Discard, pr)
		addr := strings.TrimSpace(strings.TrimPrefix(line, "listening "))
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for id := range workers {
			wg.Go(func() {
				args := append([]string{"-id", fmt.Sprint(id), "-ps", addr, "-steps", "4", "-workers", fmt.Sprint(workers), "-out", files(id)}, jobFlags...)
				if trace {
					args = append(args, "-trace")
				}
				errs[id] = workerMain(ctx, args, io.Discard, io.Discard)
			})
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		require.NoError(t, <-psDone, "the PS exits once every worker is done")
	}
	// -out replaces its file atomically (temp + rename): a hard link to
	// the old file keeps the old bytes, where an in-place write would
	// change them (and a crash would leave a torn file).
	prof := filepath.Join(dir, collection.ProfileResultFile)
	require.NoError(t, os.WriteFile(prof, []byte("old"), 0o644))
	require.NoError(t, os.Link(prof, prof+".link"))
	run(1, func(int) string { return prof }, true)
	old, err := os.ReadFile(prof + ".link")
	require.NoError(t, err)
	require.Equal(t, "old", string(old), "worker -out wrote in place")
	require.NoError(t, os.Remove(prof+".link"))
	for rep := range 2 {
		run(2, func(id int) string { return filepath.Join(dir, fmt.Sprintf("w2-r%d-worker%d.json", rep, id)) }, false)
	}
	out := filepath.Join(t.TempDir(), "mine")
	var stdout strings.Builder
	err = Main(ctx, append([]string{"reduce", "-results", dir, "-out", out, "-name", "mine", "-bandwidth-mbit", "1000", "-average", "2"}, jobFlags...),
		Launcher{}, &stdout, io.Discard)
	require.NoError(t, err)
	require.Contains(t, stdout.String(), "W=2 ")
	require.Contains(t, stdout.String(), "(2 repetitions)")
	for _, f := range []string{collection.TraceFile, collection.ThroughputFile, collection.PhasesFile, collection.RunsFile, collection.StepsFile} {
		_, err := os.Stat(filepath.Join(out, f))
		require.NoError(t, err, f)
	}
	// a missing worker file is an error, not a silent average
	require.NoError(t, os.Remove(filepath.Join(dir, "w2-r1-worker1.json")))
	err = Main(ctx, append([]string{"reduce", "-results", dir, "-out", out + "2", "-name", "mine", "-bandwidth-mbit", "1000", "-average", "2"}, jobFlags...),
		Launcher{}, io.Discard, io.Discard)
	require.ErrorContains(t, err, "W=2 repetition 1 has 1 worker results")
}
