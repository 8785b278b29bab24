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
	"sort"
	"strings"
	"sync"

	"pslab/engine/atomicfile"
	"pslab/engine/experiment"
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
	// NoData leaves out the dataset downloads, the Parquet and gzip'd CSV
	// conversions (the pages still link to where they would be).
	NoData bool
	// Progress, if set, is told of each dataset download written (or
	// reused): done of total, from one goroutine at a time.
	Progress func(done, total int)
}

// Build loads the site from opt.Root and writes it to opt.Out atomically:
// into a temporary directory beside Out, renamed into place once complete.
// On error nothing is left behind and an existing Out is untouched.
//
// The pages are rendered in memory (a few MB); the dataset downloads are
// streamed to their files a few at a time, so Build's memory does not
// grow with the datasets. Pages link each dataset's Arrow file where it
// is in the repository, by a path relative to Out.
func Build(opt Options) (*Site, error) {
	site, err := Load(opt.Root)
	if err != nil {
		return nil, err
	}
	site.RepoHref = repoHref(opt.Root, opt.Out)
	files, err := site.Render()
	if err != nil {
		return nil, err
	}
	for _, e := range site.Experiments {
		files.links[e.FigureFile()] = experiment.FigurePath(opt.Root, e.Spec, ".svg")
	}
	err = files.writeTo(opt.Out, func(dir string) error {
		if opt.NoData {
			return nil
		}
		return site.writeDownloads(opt.Root, dir, filepath.Clean(opt.Out), opt.Progress)
	})
	if err != nil {
		return nil, err
	}
	site.Files, site.Bytes, err = du(opt.Out)
	return site, err
}

// repoHref is the repository root as a link from the site root out:
// relative ("../" for a site at root/report), or a file:// URL where no
// relative path exists.
func repoHref(root, out string) string {
	ar, err1 := filepath.Abs(root)
	ao, err2 := filepath.Abs(out)
	if err1 == nil && err2 == nil {
		if r, err := filepath.Rel(ao, ar); err == nil {
			if r == "." {
				return ""
			}
			return filepath.ToSlash(r) + "/"
		}
	}
	u := filepath.ToSlash(ar)
	if !strings.HasPrefix(u, "/") { // C:/x → file:///C:/x
		u = "/" + u
	}
	return "file://" + u + "/"
}

// RepoFile is the link from a page whose site root is base to the
// repository file rel (slash-separated, relative to the root).
func (s *Site) RepoFile(base, rel string) string {
	if strings.HasPrefix(s.RepoHref, "file://") {
		return s.RepoHref + rel
	}
	return base + s.RepoHref + rel
}

// du counts the files under dir and their bytes.
func du(dir string) (files int, bytes int64, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files, bytes = files+1, bytes+info.Size()
		return nil
	})
	return files, bytes, err
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

// FigureFile is the experiment's figure in the site (a link to
// figures/<paper>/<name>.svg): its page's figure opens it full size.
func (e *Experiment) FigureFile() string { return "fig/" + e.Spec.Paper + "/" + e.Spec.Name + ".svg" }

var funcs = template.FuncMap{
	"marker": func() template.HTML { return template.HTML(marker) },
	// sha is the attribute recording a dataset's SHA-256 (shaAttr).
	"sha": func(sum string) template.HTMLAttr { return template.HTMLAttr(shaAttr(sum)) },
	"add": func(a, b int) int { return a + b },
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

// Get returns the rendered file at path within the site (Build writes
// the files out and empties f).
func (f *Files) Get(path string) ([]byte, bool) {
	b, ok := f.m[path]
	return b, ok
}

// writeTo writes the files into a temporary directory beside out (f is
// emptied as it goes), calls more (if not nil) to write the rest into it,
// and renames it to out,
// replacing a previous report (atomicfile.NewDir: the leftovers of a
// report killed mid-write, .<name>.tmp-N and .<name>.tmp-N.old beside
// out, are removed first unless their writer still runs).
func (f *Files) writeTo(out string, more func(dir string) error) error {
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
	for _, p := range sortedPaths(f.m) {
		full := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, f.m[p], 0o644); err != nil {
			return err
		}
		delete(f.m, p) // written: its memory is free for the downloads
	}
	for _, p := range sortedPaths(f.links) {
		full := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := linkOrCopy(f.links[p], full); err != nil {
			return err
		}
	}
	if more != nil {
		if err := more(tmp); err != nil {
			return err
		}
	}
	return dir.Commit()
}

// sortedPaths returns the keys of m sorted, so that files are written (and
// errors met) in the same order every time.
func sortedPaths[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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
