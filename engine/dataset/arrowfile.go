package dataset

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// arrowMagic opens and closes every Arrow IPC file.
var arrowMagic = []byte("ARROW1")

// minArrowFile is the size of the smallest Arrow IPC file: the padded
// leading magic, the footer length and the trailing magic.
const minArrowFile = 8 + 4 + 6

// withFileReader opens the Arrow IPC file b and calls fn with its reader.
// It is the one guarded path every reader of Arrow files in pslab takes
// (Decode, DecodeArrow): the file must carry the Arrow magic at both ends
// (or it is named for what it is: empty, truncated, Parquet, CSV, JSON),
// its footer is checked before the Arrow reader walks it (checkFooter),
// what the reader may allocate is bounded (decodeLimit), the content
// digest is verified where the file has one (verifyDigest), and a panic
// inside the Arrow library, in fn included, becomes a corruptError.
func withFileReader(b []byte, mem memory.Allocator, fn func(r *ipc.FileReader) error) error {
	return withFileReaderOpts(b, mem, false, fn)
}

// withFileReaderOpts is withFileReader; allowMissing accepts a pslab file
// without a content digest (verifyDigest).
func withFileReaderOpts(b []byte, mem memory.Allocator, allowMissing bool, fn func(r *ipc.FileReader) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corruptError{p}
		}
	}()
	if err := checkMagic(b); err != nil {
		return err
	}
	if err := checkFooter(b); err != nil {
		return err
	}
	lim := &limitAllocator{mem: mem, limit: decodeLimit(len(b))}
	r, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(lim))
	if err != nil {
		return fmt.Errorf("corrupt Arrow IPC file: %w", err)
	}
	defer r.Close()
	if err := checkLeadingSchema(b, lim, r.Schema()); err != nil {
		return err
	}
	if err := verifyDigest(r, allowMissing); err != nil {
		return err
	}
	return fn(r)
}

// checkLeadingSchema compares the schema message that opens the file
// (after the magic and its padding) with the footer's copy, which is the
// one the file reader uses: a file whose copies differ is damaged, even
// where the reader would never look at the leading one.
func checkLeadingSchema(b []byte, mem memory.Allocator, footer *arrow.Schema) error {
	if err := checkLeadingMessage(b); err != nil {
		return err
	}
	sr, err := ipc.NewReader(bytes.NewReader(b[8:]), ipc.WithAllocator(mem))
	if err != nil {
		return fmt.Errorf("corrupt Arrow IPC file: the schema at its start is unreadable: %w", err)
	}
	defer sr.Release()
	if s := sr.Schema(); !s.Equal(footer) || !s.Metadata().Equal(footer.Metadata()) {
		return fmt.Errorf("corrupt Arrow IPC file: the schema at its start differs from the footer's copy")
	}
	return nil
}

// DecodeArrow reads the Arrow IPC file b as one arrow.Table with the
// file's own schema and metadata, for code that passes the table on as it
// is (pslab export, the report's dataset pages). It takes Decode's guarded
// path (withFileReader) and accepts pslab's column types only (float64,
// int64, string, list<int32>; nulls allowed), each column validated as
// Decode validates it before the table is returned, so reading any value
// of the table cannot panic. The caller releases the table.
func DecodeArrow(b []byte, mem memory.Allocator) (arrow.Table, error) {
	var tab arrow.Table
	err := withFileReader(b, mem, func(r *ipc.FileReader) error {
		as := r.Schema()
		name, _ := provenanceFrom(as.Metadata())
		s, err := schemaOf(name, as)
		if err != nil {
			return err
		}
		recs, err := readRecords(r, func(rec arrow.Record) error { return validateRecord(rec, s) })
		if err != nil {
			return err
		}
		defer releaseAll(recs)
		tab = array.NewTableFromRecords(as, recs)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tab, nil
}

// readRecords reads every record batch of r, calling check on each as it
// is read, and returns them retained (releaseAll), or none and the first
// error, naming the batch.
func readRecords(r *ipc.FileReader, check func(rec arrow.Record) error) ([]arrow.Record, error) {
	recs := make([]arrow.Record, 0, r.NumRecords())
	for k := 0; k < r.NumRecords(); k++ {
		rec, err := r.RecordAt(k)
		if err == nil {
			recs = append(recs, rec)
			err = check(rec)
		}
		if err != nil {
			releaseAll(recs)
			return nil, fmt.Errorf("record batch %d: %w", k, err)
		}
	}
	return recs, nil
}

// releaseAll releases every record of recs.
func releaseAll(recs []arrow.Record) {
	for _, rec := range recs {
		rec.Release()
	}
}

// validateRecord checks every column of rec against the column of s at
// the same index: count, length and buffers (validateArray).
func validateRecord(rec arrow.Record, s *Schema) error {
	if rec.NumCols() != int64(len(s.Columns)) {
		return fmt.Errorf("%d columns, the schema has %d", rec.NumCols(), len(s.Columns))
	}
	for i, c := range s.Columns {
		a := rec.Column(i)
		if int64(a.Len()) != rec.NumRows() {
			return fmt.Errorf("column %q: %d rows in a batch of %d", c.Name, a.Len(), rec.NumRows())
		}
		if err := validateArray(a.Data(), c.Type); err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
	}
	return nil
}

// The messages for files of another format given where Arrow IPC is
// expected, with the command that converts each.
const (
	parquetHint = "it is a Parquet file; pslab reads Arrow IPC only, convert it with pyarrow: " +
		`python3 -c "import pyarrow.parquet as pq, pyarrow.feather as f; ` +
		`f.write_feather(pq.read_table('IN.parquet'), 'OUT.arrow', compression='uncompressed')"`
	csvHint = "it is a CSV file (header %q); a CSV of measurements converts with " +
		"`pslab import measured-csv IN.csv -o OUT.arrow` (`pslab import -h` lists every format)"
	jsonHint = "it looks like JSON; a TensorFlow or PyTorch Kineto trace converts with " +
		"`pslab import tf-timeline IN.json -o OUT.arrow` or `pslab import kineto IN.json -o OUT.arrow`"
	gzipHint = "it is gzip-compressed; a Kineto trace (.json.gz) converts with " +
		"`pslab import kineto IN.json.gz -o OUT.arrow`"
)

// checkMagic requires the Arrow magic at both ends of b and otherwise says
// what b is: empty, a truncated Arrow file, Parquet, CSV, JSON or gzip.
func checkMagic(b []byte) error {
	switch {
	case len(b) == 0:
		return fmt.Errorf("not an Arrow IPC file: the file is empty")
	case bytes.HasPrefix(b, arrowMagic) && (len(b) < minArrowFile || !bytes.HasSuffix(b, arrowMagic)),
		len(b) < len(arrowMagic) && bytes.HasPrefix(arrowMagic, b):
		return fmt.Errorf("truncated Arrow IPC file: %d bytes, without the end marker %q", len(b), arrowMagic)
	case bytes.HasPrefix(b, arrowMagic):
		return nil
	case bytes.HasPrefix(b, []byte("PAR1")):
		return fmt.Errorf("not an Arrow IPC file: %s", parquetHint)
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		return fmt.Errorf("not an Arrow IPC file: %s", gzipHint)
	case bytes.HasSuffix(b, arrowMagic):
		return fmt.Errorf("corrupt Arrow IPC file: the start marker %q is damaged", arrowMagic)
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(text) > 0 && (text[0] == '{' || text[0] == '[') {
		return fmt.Errorf("not an Arrow IPC file: %s", jsonHint)
	}
	if head, ok := textHeader(text); ok && bytes.IndexByte(head, ',') >= 0 {
		return fmt.Errorf("not an Arrow IPC file: "+csvHint, clip(head, 80))
	}
	return fmt.Errorf("not an Arrow IPC file (it starts with %q)", clip(b, 8))
}

// textHeader returns the first line of b if it is printable UTF-8 text
// of at most 4 KiB.
func textHeader(b []byte) ([]byte, bool) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimRight(b, "\r")
	if len(b) == 0 || len(b) > 4<<10 || !utf8.Valid(b) {
		return nil, false
	}
	for _, r := range string(b) {
		if r < ' ' && r != '\t' || r == 0x7f {
			return nil, false
		}
	}
	return b, true
}

// clip returns at most n bytes of b, on a rune boundary if b is text.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "…"
}
