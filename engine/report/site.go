package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"pslab/engine/experiment"
)

// Site is everything the report shows.
type Site struct {
	Experiments []*Experiment
	Datasets    []*Dataset
	// Papers has one row per paper (in experiment.Papers order); Total
	// sums them.
	Papers   []PaperRow
	Total    PaperRow
	Accuracy *Accuracy
	// RepoHref is the repository root as a link from the site root ("../"
	// for a site at root/report; set by Build, "" after Load): pages link
	// datasets' Arrow files there (RepoFile).
	RepoHref string
	// Files and Bytes count what Build wrote.
	Files int
	Bytes int64
}

// PaperRow counts one paper's experiments by status and its checks.
type PaperRow struct {
	Paper                                      string
	Experiments, Reproduced, Partial, Deviates int
	Counts
}

// AccuracyID is the experiment behind the model-accuracy page.
const AccuracyID = "beyond-testbed-accuracy"

// Load reads the site from the repository at root: every experiment under
// experiments/ with its golden file and recorded results, and every dataset
// under datasets/. Errors name the file at fault.
func Load(root string) (*Site, error) {
	if st, err := os.Stat(filepath.Join(root, "figures")); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("no results directory %s: run `make figures` (pslab run) first", filepath.Join(root, "figures"))
	}
	paths, err := experiment.Find(root, nil)
	if err != nil {
		return nil, err
	}
	site := &Site{Experiments: make([]*Experiment, len(paths))}
	err = parallel(len(paths), func(i int) (err error) {
		site.Experiments[i], err = loadExperiment(root, paths[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(site.Experiments, func(i, j int) bool {
		a, b := site.Experiments[i].Spec, site.Experiments[j].Spec
		if a.Paper != b.Paper {
			return paperIndex(a.Paper) < paperIndex(b.Paper)
		}
		return a.ID < b.ID
	})
	dpaths, err := findDatasets(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	site.Datasets = make([]*Dataset, len(dpaths))
	inflight := newBudget(arrowBudget)
	err = parallel(len(dpaths), func(i int) (err error) {
		n := fileSize(dpaths[i])
		inflight.acquire(n)
		defer inflight.release(n)
		site.Datasets[i], err = loadDataset(root, dpaths[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	site.link()
	site.shareMeta()
	site.count()
	for _, e := range site.Experiments {
		if e.Spec.ID == AccuracyID {
			site.Accuracy = newAccuracy(e)
		}
	}
	return site, nil
}

// shareMeta points each dataset whose metadata keys equal those of a
// sibling in its directory, with at most maxOwnMeta values of its own (a
// testbed configuration's files share the configuration's metadata and
// differ in their content hash), at the one page that shows them all:
// the directory's throughput.arrow, else its first dataset with those
// keys. Written once, the grouped key explanations no longer repeat on
// eight pages per configuration; each page still lists its own values.
func (s *Site) shareMeta() {
	byDir := map[string][]*Dataset{}
	for _, d := range s.Datasets {
		if len(d.Meta) > 0 {
			dir := path.Dir(d.Rel)
			byDir[dir] = append(byDir[dir], d)
		}
	}
	for _, ds := range byDir {
		sort.SliceStable(ds, func(i, j int) bool {
			return path.Base(ds[i].Rel) == "throughput.arrow" && path.Base(ds[j].Rel) != "throughput.arrow"
		})
		for i, d := range ds {
			for _, c := range ds[:i] {
				if own, ok := ownMeta(c.Meta, d.Meta); c.MetaOf == nil && ok {
					d.MetaOf, d.MetaOwn = c, own
					break
				}
			}
		}
	}
}

// maxOwnMeta is the most values a page that shares its metadata keys
// with a sibling's lists of its own.
const maxOwnMeta = 3

// ownMeta returns the entries of b whose values differ from a's, and
// whether a and b have the same keys with at most maxOwnMeta values
// apart.
func ownMeta(a, b []MetaGroup) ([]MetaKey, bool) {
	av := map[string]string{}
	for _, g := range a {
		for _, k := range g.Keys {
			av[k.Key] = k.Value
		}
	}
	var own []MetaKey
	n := 0
	for _, g := range b {
		for _, k := range g.Keys {
			n++
			v, ok := av[k.Key]
			if !ok {
				return nil, false
			}
			if v != k.Value {
				own = append(own, k)
			}
		}
	}
	return own, n == len(av) && len(own) <= maxOwnMeta
}

// link resolves every experiment's inputs to datasets, and back.
func (s *Site) link() {
	byRel := map[string]*Dataset{}
	for _, d := range s.Datasets {
		byRel[d.Rel] = d
	}
	for _, e := range s.Experiments {
		names := make([]string, 0, len(e.Spec.Inputs))
		for n := range e.Spec.Inputs {
			names = append(names, n)
		}
		sort.Strings(names)
		seen := map[*Dataset]bool{}
		for _, n := range names {
			p := filepath.ToSlash(filepath.Clean(e.Spec.Inputs[n]))
			in := Input{Name: n, Path: p, Datasets: inputDatasets(p, byRel, s.Datasets)}
			e.Inputs = append(e.Inputs, in)
			for _, d := range in.Datasets {
				if !seen[d] {
					seen[d] = true
					d.UsedBy = append(d.UsedBy, e)
				}
			}
		}
	}
}

// count fills the per-paper rows and the total.
func (s *Site) count() {
	rows := map[string]*PaperRow{}
	for _, e := range s.Experiments {
		r := rows[e.Spec.Paper]
		if r == nil {
			r = &PaperRow{Paper: e.Spec.Paper}
			rows[e.Spec.Paper] = r
		}
		r.Experiments++
		switch e.Spec.Status {
		case "reproduced":
			r.Reproduced++
		case "partial":
			r.Partial++
		default:
			r.Deviates++
		}
		r.Counts.Add(e.Count)
	}
	s.Total = PaperRow{Paper: "all"}
	for _, p := range experiment.Papers {
		if r := rows[p]; r != nil {
			s.Papers = append(s.Papers, *r)
			s.Total.Experiments += r.Experiments
			s.Total.Reproduced += r.Reproduced
			s.Total.Partial += r.Partial
			s.Total.Deviates += r.Deviates
			s.Total.Counts.Add(r.Counts)
		}
	}
}

func paperIndex(p string) int {
	for i, q := range experiment.Papers {
		if q == p {
			return i
		}
	}
	return len(experiment.Papers)
}

// arrowBudget bounds the bytes of the Arrow files Load and Build hold at
// once (each held with its decoded table and, while it is converted, the
// Parquet writer's buffers): large files are converted one at a time, the
// many small ones side by side. It keeps the report's peak memory below
// that of pslab run.
const arrowBudget = 4 << 20

// budget is a counting semaphore of bytes.
type budget struct {
	mu          sync.Mutex
	cond        *sync.Cond
	free, total int64
}

func newBudget(total int64) *budget {
	b := &budget{free: total, total: total}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire waits until n bytes are free (all of them, for n above the
// total) and takes them.
func (b *budget) acquire(n int64) {
	n = min(n, b.total)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.free < n {
		b.cond.Wait()
	}
	b.free -= n
}

// release returns what acquire(n) took.
func (b *budget) release(n int64) {
	n = min(n, b.total)
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// fileSize is the size of the file at path, or 0 if it cannot be read
// (the read that follows reports the error).
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// parallel calls f(0..n-1) on up to GOMAXPROCS goroutines and returns the
// error of the lowest index, so the error reported does not depend on
// scheduling.
func parallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
