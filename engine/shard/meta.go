package shard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"pslab/engine/atomicfile"
)

// MetaName is the file name of a shard's metadata in its directory.
const MetaName = "shard.json"

// RevisionEnv names the environment variable that supplies the VCS
// revision when the binary records none (built by `go test`, or outside a
// Git checkout). It never overrides a revision the binary records.
const RevisionEnv = "PSLAB_VCS_REVISION"

// Meta is what a shard records of itself in shard.json.
type Meta struct {
	// Command is the pslab command line, subcommand first, without -shard
	// and -shard-dir (Normalise).
	Command []string `json:"command"`
	// Shard is Index of Count.
	Index int `json:"index"`
	Count int `json:"count"`
	// Revision is the binary's vcs.revision ("unknown" when it records
	// none and RevisionEnv is unset); Modified its vcs.modified.
	Revision string `json:"revision"`
	Modified bool   `json:"modified"`
	// Root is the -root of pslab run on the shard's machine, as given on
	// its command line; "" for pslab predict. It is a record only: merge
	// never writes by it (a shard does not choose where merge writes).
	Root string `json:"root,omitempty"`
	// Items are what the shard did (experiment ids, sweep points), Total
	// the length of the whole partitioned list.
	Items []string `json:"items"`
	Total int      `json:"total"`
	// Failed are the items that failed (their outputs may be missing).
	Failed []string `json:"failed,omitempty"`
	// Files are the shard's outputs, relative to its directory.
	Files []File `json:"files"`

	// Dir is the shard's directory (not stored).
	Dir string `json:"-"`
}

// File is one output of a shard.
type File struct {
	Path   string `json:"path"` // slash-separated, relative to the shard directory
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // hex
}

// Name names the shard in messages: "shard 1/3 (dir)".
func (m *Meta) Name() string {
	return fmt.Sprintf("shard %d/%d (%s)", m.Index, m.Count, m.Dir)
}

// CommandLine is the command as a user types it: "pslab run -root x".
func (m *Meta) CommandLine() string {
	return strings.Join(append([]string{"pslab"}, m.Command...), " ")
}

// Write writes m as dir/shard.json, atomically. Call it last, after every
// output: its presence marks a finished shard.
func (m *Meta) Write(dir string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, MetaName), append(b, '\n'))
}

// ReadMeta reads and validates dir/shard.json (ParseMeta), opening it
// within dir: a shard.json that is a symbolic link out of dir is refused.
// Errors name the file and, for a malformed one, the field at fault.
func ReadMeta(dir string) (*Meta, error) {
	b, err := readWithin(dir, MetaName)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no %s: not a shard directory, or the shard did not finish", dir, MetaName)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, MetaName), err)
	}
	return ParseMeta(b, dir)
}

// readWithin reads dir/name through an os.Root of dir (no symbolic link
// out of dir), at most maxMetaSize+1 bytes.
func readWithin(dir, name string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxMetaSize+1))
}

// Revision returns the VCS revision and modified flag the running binary
// records (runtime/debug.ReadBuildInfo: vcs.revision, vcs.modified). A
// binary that records none (go test, a build outside Git) takes the
// revision from $PSLAB_VCS_REVISION, else "unknown".
func Revision() (rev string, modified bool) {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev == "" {
		rev, modified = os.Getenv(RevisionEnv), false
	}
	if rev == "" {
		rev = "unknown"
	}
	return rev, modified
}

// Find returns the shard directories named by args: a directory holding
// shard.json, or one whose subdirectories shard-*-of-* do. A directory
// with neither is an error.
func Find(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if _, err := os.Stat(filepath.Join(a, MetaName)); err == nil {
			out = append(out, a)
			continue
		}
		sub, err := filepath.Glob(filepath.Join(a, "shard-*-of-*"))
		if err != nil {
			return nil, err
		}
		if len(sub) == 0 {
			if _, err := os.Stat(a); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%s: neither a shard directory (no %s) nor a directory of shard-<i>-of-<N> directories", a, MetaName)
		}
		out = append(out, sub...)
	}
	if len(out) == 0 {
		return nil, errors.New("no shard directories")
	}
	return out, nil
}

// Check reports why the shards cannot be joined into one run, naming the
// shard at fault: a different shard count, command line, revision or
// recorded root; a duplicated or missing index; an item or output file
// done by two shards, or output paths that collide (pathSet: equal but
// for letter case, a file in one and a directory in another); items that
// do not add up to the total. It reads no file: Verify checks them.
func Check(shards []*Meta) error {
	if len(shards) == 0 {
		return errors.New("no shards")
	}
	ref := shards[0]
	byIndex := map[int]*Meta{}
	items := map[string]*Meta{}
	n := 0
	for _, m := range shards {
		switch {
		case m.Count != ref.Count:
			return fmt.Errorf("%s is one of %d shards, but %s is one of %d", m.Name(), m.Count, ref.Name(), ref.Count)
		case m.CommandLine() != ref.CommandLine():
			return fmt.Errorf("%s ran another command line: %q, but %s ran %q", m.Name(), m.CommandLine(), ref.Name(), ref.CommandLine())
		case m.Revision != ref.Revision || m.Modified != ref.Modified:
			return fmt.Errorf("%s comes from another commit: revision %s, but %s is from %s", m.Name(), revName(m), ref.Name(), revName(ref))
		case m.Root != ref.Root:
			return fmt.Errorf("%s writes under root %q, but %s under %q", m.Name(), m.Root, ref.Name(), ref.Root)
		case m.Total != ref.Total:
			return fmt.Errorf("%s partitioned %d items, but %s partitioned %d (did the experiments change between shards?)", m.Name(), m.Total, ref.Name(), ref.Total)
		}
		if o, ok := byIndex[m.Index]; ok {
			return fmt.Errorf("shard %d/%d is duplicated: %s and %s", m.Index, m.Count, o.Dir, m.Dir)
		}
		byIndex[m.Index] = m
		for _, it := range m.Items {
			if o, ok := items[it]; ok {
				return fmt.Errorf("%s and %s both did %s", o.Name(), m.Name(), it)
			}
			items[it] = m
		}
		n += len(m.Items)
	}
	if err := checkFiles(shards); err != nil {
		return err
	}
	var missing []string
	for i := range ref.Count {
		if byIndex[i] == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, ref.Count))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("shard %s missing (have %d of %d shards of %q)", strings.Join(missing, ", "), len(byIndex), ref.Count, ref.CommandLine())
	}
	if n != ref.Total {
		return fmt.Errorf("the shards did %d items of %d", n, ref.Total)
	}
	return nil
}

func revName(m *Meta) string {
	if m.Modified {
		return m.Revision + " (modified)"
	}
	return m.Revision
}
