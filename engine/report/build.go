package report

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"pslab/engine/atomicfile"
)

//go:embed templates/*.html
var templateFS embed.FS

// marker is in every index.html the report writes; Build replaces an
// existing output directory only if its index.html carries it.
const marker = `<meta name="generator" content="pslab report">`

// Options configure Build.
type Options struct {
	// Root is the repository root (experiments/, golden/, figures/,
	// datasets/).
	Root string
	// Out is the site directory; it is replaced as a whole.
	Out string
	// NoData leaves out the dataset copies and their Parquet and CSV
	// exports (the pages still link to where they would be).
	NoData bool
}

// Build loads the site from opt.Root and writes it to opt.Out atomically:
// into a temporary directory beside Out, renamed into place once complete.
// On error nothing is left behind and an existing Out is untouched.
func Build(opt Options) (*Site, error) {
	site, err := Load(opt.Root)
	if err != nil {
		return nil, err
	}
	files, err := site.Render()
	if err != nil {
		return nil, err
	}
	if !opt.NoData {
		err = parallel(len(site.Datasets), func(i int) error {
			d := site.Datasets[i]
			links := map[string]string{d.File(".arrow"): filepath.Join(opt.Root, filepath.FromSlash(d.Rel))}
			if prev := filepath.Join(opt.Out, filepath.FromSlash(d.File(""))); d.sameAs(prev + ".arrow") {
				// The exports are a function of the Arrow bytes: reuse the
				// previous report's.
				links[d.File(".parquet")], links[d.File(".csv")] = prev+".parquet", prev+".csv"
			} else {
				ex, err := d.exports()
				if err != nil {
					return err
				}
				files.addAll(ex)
			}
			files.mu.Lock()
			defer files.mu.Unlock()
			for k, v := range links {
				files.links[k] = v
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return site, files.writeTo(opt.Out)
}

// Render renders every page of the site, keyed by path within it.
func (s *Site) Render() (*Files, error) {
	t, err := template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("report templates: %w", err)
	}
	files := &Files{m: map[string][]byte{}, links: map[string]string{}}
	page := func(path, tmpl string, data any) error {
		var b bytes.Buffer
		base := strings.Repeat("../", strings.Count(path, "/"))
		if err := t.ExecuteTemplate(&b, tmpl, struct {
			Base string
			Site *Site
			Data any
		}{base, s, data}); err != nil {
			return fmt.Errorf("report: %s: %w", path, err)
		}
		files.add(path, b.Bytes())
		return nil
	}
	if err := page("index.html", "index.html", nil); err != nil {
		return nil, err
	}
	if err := page("datasets.html", "datasets.html", nil); err != nil {
		return nil, err
	}
	if err := page("accuracy.html", "accuracy.html", s.Accuracy); err != nil {
		return nil, err
	}
	for _, e := range s.Experiments {
		if err := page(e.Page(), "experiment.html", e); err != nil {
			return nil, err
		}
	}
	for _, d := range s.Datasets {
		if err := page(d.Page(), "dataset.html", d); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// Page is the experiment's page relative to the site root.
func (e *Experiment) Page() string { return "e/" + e.Spec.ID + ".html" }

var funcs = template.FuncMap{
	"marker": func() template.HTML { return template.HTML(marker) },
}

// Files are the site's files by path (slash-separated, relative).
type Files struct {
	mu sync.Mutex
	m  map[string][]byte
	// links are files copied from the repository as they are (hard links
	// where the file system allows): site path → source file.
	links map[string]string
}

func (f *Files) add(path string, b []byte) { f.addAll(map[string][]byte{path: b}) }

func (f *Files) addAll(m map[string][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, v := range m {
		f.m[k] = v
	}
}

// Get returns the file at path within the site.
func (f *Files) Get(path string) ([]byte, bool) {
	b, ok := f.m[path]
	return b, ok
}

// writeTo writes the files into a temporary directory beside out and
// renames it to out, replacing a previous report (atomicfile.NewDir: the
// leftovers of a report killed mid-write, .<name>.tmp-N and .<name>.tmp-N.old
// beside out, are removed first unless their writer still runs).
func (f *Files) writeTo(out string) error {
	out = filepath.Clean(out)
	if err := replaceable(out); err != nil {
		return err
	}
	dir, err := atomicfile.NewDir(out)
	if err != nil {
		return err
	}
	defer dir.Abort()
	tmp := dir.Path
	for p, b := range f.m {
		full := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return err
		}
	}
	for p, src := range f.links {
		full := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := linkOrCopy(src, full); err != nil {
			return err
		}
	}
	return dir.Commit()
}

// linkOrCopy hard-links src to dst, or copies it where links fail.
func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// replaceable reports an error if out exists and is not an earlier report
// or an empty directory: Build never replaces anything else.
func replaceable(out string) error {
	st, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("report: %s exists and is not a directory", out)
	}
	ents, err := os.ReadDir(out)
	if err != nil || len(ents) == 0 {
		return err
	}
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !bytes.Contains(b, []byte(marker)) {
		return fmt.Errorf("report: %s exists and is not a pslab report: not replacing it", out)
	}
	return nil
}
