package report

import (
	"bytes"
	"fmt"
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
	// Prov lists the provenance keys in a fixed order: origin, source,
	// licence, command, notes, then the others sorted.
	Prov                    []KV
	Origin, Licence, Source string
	Command                 string
	Rows                    int64
	Head                    [][]string
	UsedBy                  []*Experiment
	// raw is the Arrow file, for the copies and exports.
	raw []byte
}

// Column is a column of a dataset with its type and unit.
type Column struct{ Name, Type, Unit string }

// KV is one metadata entry.
type KV struct{ Key, Value string }

// Page is the dataset's page relative to the site root.
func (d *Dataset) Page() string { return "d/" + d.Slug + ".html" }

// File is the dataset's copy in the site, with extension ext
// (".arrow", ".parquet", ".csv").
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

// loadDataset reads the Arrow file at path: schema, provenance, row count
// and the first rows.
func loadDataset(root, path string) (*Dataset, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := export.ReadArrow(raw, dataset.Allocator)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel(root, path), err)
	}
	defer t.Release()
	r := rel(root, path)
	d := &Dataset{Rel: r, Slug: strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(r, "datasets/"), ".arrow"), "/", "--"),
		Rows: t.NumRows(), raw: raw}
	md := t.Schema().Metadata()
	meta := map[string]string{}
	for i, k := range md.Keys() {
		meta[k] = md.Values()[i]
	}
	d.Schema, d.Origin, d.Licence, d.Source, d.Command = meta["pslab.schema"], meta["origin"], meta["licence"], meta["source"], meta["command"]
	var extra []string
	for k := range meta {
		switch {
		case k == "pslab.schema" || strings.HasPrefix(k, "unit."):
		case k == "origin" || k == "source" || k == "licence" || k == "command" || k == "notes":
		default:
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range append([]string{"origin", "source", "licence", "command", "notes"}, extra...) {
		if v, ok := meta[k]; ok {
			d.Prov = append(d.Prov, KV{k, v})
		}
	}
	for _, f := range t.Schema().Fields() {
		d.Columns = append(d.Columns, Column{Name: f.Name, Type: f.Type.String(), Unit: meta["unit."+f.Name]})
	}
	d.Head = head(t, HeadRows)
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

// exports returns the dataset's Parquet and CSV forms, keyed by site path.
func (d *Dataset) exports() (map[string][]byte, error) {
	t, err := export.ReadArrow(d.raw, dataset.Allocator)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Rel, err)
	}
	defer t.Release()
	var pq, csv strings.Builder
	if err := export.Parquet(&pq, t, dataset.Allocator); err != nil {
		return nil, fmt.Errorf("%s: %w", d.Rel, err)
	}
	if err := export.CSV(&csv, t); err != nil {
		return nil, fmt.Errorf("%s: %w", d.Rel, err)
	}
	return map[string][]byte{d.File(".parquet"): []byte(pq.String()), d.File(".csv"): []byte(csv.String())}, nil
}

// sameAs reports whether the file at path holds the dataset's bytes and
// the Parquet and CSV exports beside it exist (an earlier report's copy).
func (d *Dataset) sameAs(path string) bool {
	for _, ext := range []string{".parquet", ".csv"} {
		if _, err := os.Stat(strings.TrimSuffix(path, ".arrow") + ext); err != nil {
			return false
		}
	}
	b, err := os.ReadFile(path)
	return err == nil && bytes.Equal(b, d.raw)
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
