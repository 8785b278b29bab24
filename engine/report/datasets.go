package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"

	"pslab/engine/dataset"
	"pslab/engine/export"
)

// HeadRows is how many rows a dataset page shows.
const HeadRows = 20

// Dataset is one Arrow file under datasets/ as the report shows it.
type Dataset struct {
	Rel     string // path relative to the root, slash-separated
	Slug    string // page name: Rel without .arrow, "/" as "--"
	Schema  string // pslab.schema name
	Columns []Column
	// Prov lists the provenance keys present, in provenanceKeys order.
	Prov                    []KV
	Origin, Licence, Source string
	Command                 string
	// Meta are the other metadata keys, grouped and named (keys.go).
	Meta []MetaGroup
	// MetaOf, if not nil, is a dataset of the same directory with the same
	// metadata keys whose page shows them, and MetaOwn the entries whose
	// values differ from it (Site.shareMeta).
	MetaOf  *Dataset
	MetaOwn []MetaKey
	Rows    int64
	Head    [][]string
	// SHA256 is the hex SHA-256 of the Arrow file: what the page shows,
	// and what the downloads were converted from.
	SHA256 string
	// Plot is the page's small plot (nil when nothing is plotted) and
	// PlotCaption says what it shows, or why there is none.
	Plot        template.HTML
	PlotCaption string
	UsedBy      []*Experiment
	// meta is the schema metadata by key.
	meta map[string]string
}

// Column is a column of a dataset with its type, unit and meaning.
type Column struct{ Name, Type, Unit, Doc string }

// KV is one metadata entry.
type KV struct{ Key, Value string }

// Page is the dataset's page relative to the site root.
func (d *Dataset) Page() string { return "d/" + d.Slug + ".html" }

// Downloads reports whether the site holds Parquet and CSV downloads of
// the dataset: those some experiment reads, the data behind the report's
// results. The others (previous testbed collections kept for comparison,
// datasets a user added and no experiment reads yet) get their page and
// the link to their Arrow file in the repository only, which keeps the
// site small (every download of the 546 committed datasets came to 64 MB,
// half of them for collections nothing reads).
func (d *Dataset) Downloads() bool { return len(d.UsedBy) > 0 }

// File is the dataset's download in the site with extension ext
// (".parquet", ".csv.gz"); the Arrow file itself is linked where it is
// in the repository (Site.RepoFile), not copied.
func (d *Dataset) File(ext string) string {
	return "data/" + strings.TrimSuffix(strings.TrimPrefix(d.Rel, "datasets/"), ".arrow") + ext
}

// findDatasets returns every *.arrow file under root/datasets, sorted.
func findDatasets(root string) ([]string, error) {
	var out []string
	dir := filepath.Join(root, "datasets")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".arrow") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

// loadDataset reads the Arrow file at path: schema, provenance and
// metadata, row count, the first rows, its plot and its SHA-256. It keeps
// none of the file's bytes.
func loadDataset(root, path string) (*Dataset, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := rel(root, path)
	t, err := export.ReadArrow(raw, dataset.Allocator)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r, err)
	}
	defer t.Release()
	sum := sha256.Sum256(raw)
	d := &Dataset{Rel: r, Slug: strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(r, "datasets/"), ".arrow"), "/", "--"),
		Rows: t.NumRows(), SHA256: hex.EncodeToString(sum[:]), meta: map[string]string{}}
	md := t.Schema().Metadata()
	for i, k := range md.Keys() {
		d.meta[k] = md.Values()[i]
	}
	meta := d.meta
	d.Schema, d.Origin, d.Licence, d.Source, d.Command = meta["pslab.schema"], meta["origin"], meta["licence"], meta["source"], meta["command"]
	for _, k := range provenanceKeys {
		if v, ok := meta[k]; ok {
			d.Prov = append(d.Prov, KV{k, v})
		}
	}
	d.Meta = groupMeta(meta)
	docs := columnDocs(path, d.Schema)
	for i, f := range t.Schema().Fields() {
		d.Columns = append(d.Columns, Column{Name: f.Name, Type: f.Type.String(), Unit: export.Unit(t.Schema(), i), Doc: docs[f.Name]})
	}
	d.Head = head(t, HeadRows)
	c, caption := plotDataset(d.Schema, t, meta)
	if c != nil {
		d.Plot = c.svg(caption)
	}
	d.PlotCaption = caption
	return d, nil
}

// head formats the first n rows of t.
func head(t arrow.Table, n int) [][]string {
	rows := int(min(t.NumRows(), int64(n)))
	out := make([][]string, rows)
	for i := range out {
		out[i] = make([]string, t.NumCols())
	}
	for c := 0; c < int(t.NumCols()); c++ {
		r := 0
		for _, chunk := range t.Column(c).Data().Chunks() {
			for k := 0; k < chunk.Len() && r < rows; k++ {
				out[r][c] = chunk.ValueStr(k)
				r++
			}
		}
	}
	return out
}

// inputDatasets returns the datasets an input path names: the file, or
// every dataset under the directory.
func inputDatasets(p string, byRel map[string]*Dataset, sorted []*Dataset) []*Dataset {
	if d, ok := byRel[p]; ok {
		return []*Dataset{d}
	}
	var out []*Dataset
	prefix := strings.TrimSuffix(p, "/") + "/"
	for _, d := range sorted {
		if strings.HasPrefix(d.Rel, prefix) {
			out = append(out, d)
		}
	}
	return out
}
