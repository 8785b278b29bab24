package dataset

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/atomicfile"
)

// Encode returns the table as an uncompressed Arrow IPC file with the
// digest of its content in the schema metadata (DigestKey). The table is
// validated first; the same table always gives the same bytes.
func Encode(t *Table, mem memory.Allocator) ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", t.Schema.Name, err)
	}
	plain := t.Schema.arrowSchema(t.Provenance)
	content := t.record(plain, mem)
	defer content.Release()
	schema := withDigest(plain, []arrow.Record{content})
	rec := array.NewRecord(schema, content.Columns(), content.NumRows())
	defer rec.Release()
	var buf seekBuffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.b, nil
}

// seekBuffer is an in-memory io.WriteSeeker, which the Arrow file writer
// needs.
type seekBuffer struct {
	b   []byte
	pos int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if need := s.pos + len(p); need > len(s.b) {
		s.b = append(s.b, make([]byte, need-len(s.b))...)
	}
	copy(s.b[s.pos:], p)
	s.pos += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = int64(s.pos) + offset
	case io.SeekEnd:
		abs = int64(len(s.b)) + offset
	}
	if abs < 0 {
		return 0, errors.New("dataset: negative seek")
	}
	s.pos = int(abs)
	return abs, nil
}

// Write validates t and writes it to path as an Arrow IPC file, atomically:
// the bytes go to a temporary file in the same directory that is renamed
// over path only when complete. Parent directories are created.
func Write(path string, t *Table, mem memory.Allocator) error {
	b, err := Encode(t, mem)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, b)
}

func (t *Table) record(schema *arrow.Schema, mem memory.Allocator) arrow.Record {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, col := range t.cols {
		switch v := col.(type) {
		case []float64:
			b.Field(i).(*array.Float64Builder).AppendValues(v, nil)
		case []int64:
			b.Field(i).(*array.Int64Builder).AppendValues(v, nil)
		case []string:
			b.Field(i).(*array.StringBuilder).AppendValues(v, nil)
		case [][]int32:
			lb := b.Field(i).(*array.ListBuilder)
			vb := lb.ValueBuilder().(*array.Int32Builder)
			for _, l := range v {
				lb.Append(true)
				vb.AppendValues(l, nil)
			}
		}
	}
	return b.NewRecord()
}
