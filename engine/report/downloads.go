package report

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"pslab/engine/dataset"
	"pslab/engine/export"
)

// downloadExts are the downloads the site holds per dataset: Parquet
// (Snappy-compressed column chunks; it reads back as the same Arrow table)
// and CSV compressed with gzip. The Arrow file is not copied: pages link
// to it in the repository.
var downloadExts = []string{".parquet", ".csv.gz"}

// csvGzipLevel compresses the CSV downloads: on the committed datasets
// (53 MB of CSV) level 4 gives 14.1 MB in about half the CPU time of the
// default level 6 (13.5 MB); level 1 gives 15.9 MB.
const csvGzipLevel = 4

// shaAttr is the attribute of a dataset page that records the SHA-256 of
// the Arrow file its downloads were converted from.
func shaAttr(sum string) string { return `data-sha256="` + sum + `"` }

// writeDownloads writes the downloads of every dataset that has them
// (Dataset.Downloads) into dir, the site
// being built, at most GOMAXPROCS datasets and arrowBudget bytes of Arrow
// files at a time, each converted from its Arrow file (read again) and
// streamed to its files, so memory holds a few datasets, not all of them. A dataset
// whose page in prev, the report being replaced, records the same SHA-256
// gets prev's files instead (hard links where the file system allows):
// the conversions are a function of the Arrow bytes. progress, if not nil,
// is called after each dataset, under a lock.
func (s *Site) writeDownloads(root, dir, prev string, progress func(done, total int)) error {
	inflight := newBudget(arrowBudget)
	var mu sync.Mutex
	done := 0
	return parallel(len(s.Datasets), func(i int) error {
		if progress != nil {
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				done++
				progress(done, len(s.Datasets))
			}()
		}
		d := s.Datasets[i]
		if !d.Downloads() || d.reuse(dir, prev) {
			return nil
		}
		n := fileSize(filepath.Join(root, filepath.FromSlash(d.Rel)))
		inflight.acquire(n)
		defer inflight.release(n)
		return d.export(root, dir)
	})
}

// reuse links the previous report's downloads of d into dir if that
// report's page of d records d's SHA-256 and has both files. It reports
// whether it did.
func (d *Dataset) reuse(dir, prev string) bool {
	page, err := os.ReadFile(filepath.Join(prev, filepath.FromSlash(d.Page())))
	if err != nil || !bytes.Contains(page, []byte(shaAttr(d.SHA256))) {
		return false
	}
	for _, ext := range downloadExts {
		if _, err := os.Stat(filepath.Join(prev, filepath.FromSlash(d.File(ext)))); err != nil {
			return false
		}
	}
	for _, ext := range downloadExts {
		dst := filepath.Join(dir, filepath.FromSlash(d.File(ext)))
		if os.MkdirAll(filepath.Dir(dst), 0o755) != nil || linkOrCopy(filepath.Join(prev, filepath.FromSlash(d.File(ext))), dst) != nil {
			for _, ext := range downloadExts { // never write through a link into prev
				os.Remove(filepath.Join(dir, filepath.FromSlash(d.File(ext))))
			}
			return false
		}
	}
	return true
}

// export converts d's Arrow file under root into its downloads in dir.
func (d *Dataset) export(root, dir string) error {
	raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Rel)))
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != d.SHA256 {
		return fmt.Errorf("%s changed while the report was being built: build it again", d.Rel)
	}
	t, err := export.ReadArrow(raw, dataset.Allocator)
	if err != nil {
		return fmt.Errorf("%s: %w", d.Rel, err)
	}
	defer t.Release()
	err = writeFile(filepath.Join(dir, filepath.FromSlash(d.File(".parquet"))), func(w io.Writer) error {
		return export.Parquet(w, t, dataset.Allocator)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", d.Rel, err)
	}
	err = writeFile(filepath.Join(dir, filepath.FromSlash(d.File(".csv.gz"))), func(w io.Writer) error {
		// The gzip header carries no name and no time: the same table
		// gives the same bytes.
		z, err := gzip.NewWriterLevel(w, csvGzipLevel)
		if err != nil {
			return err
		}
		if err := export.CSV(z, t); err != nil {
			return err
		}
		return z.Close()
	})
	if err != nil {
		return fmt.Errorf("%s: %w", d.Rel, err)
	}
	return nil
}

// writeFile creates path (and its directory) and streams fill into it
// through a buffer.
func writeFile(path string, fill func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := fill(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// linkOrCopy hard-links src to dst, or copies it where links fail.
func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeFile(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}
