package dataset

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// corruptError is what Decode returns when the Arrow library panics on a
// damaged file: the panic is contained and reported as bad data. A Go
// runtime error (an index or slice out of range in the flatbuffer code)
// is described, not shown: the user needs to know the file is damaged, not
// where the library tripped over it.
type corruptError struct{ cause any }

func (e corruptError) Error() string {
	switch c := e.cause.(type) {
	case allocLimit:
		return "corrupt Arrow IPC file: " + c.Error()
	case runtime.Error:
		return "corrupt Arrow IPC file: an offset or length in it points outside the file"
	}
	return fmt.Sprintf("corrupt Arrow IPC file (the Arrow reader stopped: %v)", e.cause)
}

// allocLimit is the panic of a limitAllocator asked for more than its
// limit (in bytes).
type allocLimit int64

func (l allocLimit) Error() string {
	return fmt.Sprintf("its declared buffers need more than %d bytes", int64(l))
}

// limitAllocator refuses to hand out more than limit bytes in total, so a
// damaged length field cannot make the reader allocate gigabytes for a
// small file. It panics (contained by Decode) when the limit is passed.
type limitAllocator struct {
	mem   memory.Allocator
	limit int64
	used  atomic.Int64
}

// decodeLimit is the most memory Decode lets the Arrow reader allocate for
// a file of n bytes: generous for compressed files, bounded for garbage.
func decodeLimit(n int) int64 { return 64*int64(n) + 1<<20 }

func (a *limitAllocator) grow(n int) {
	if n < 0 || a.used.Add(int64(n)) > a.limit {
		panic(allocLimit(a.limit))
	}
}

func (a *limitAllocator) Allocate(n int) []byte {
	a.grow(n)
	return a.mem.Allocate(n)
}

func (a *limitAllocator) Reallocate(n int, b []byte) []byte {
	a.grow(n - len(b))
	return a.mem.Reallocate(n, b)
}

func (a *limitAllocator) Free(b []byte) {
	a.used.Add(-int64(len(b)))
	a.mem.Free(b)
}

// validateArray checks the buffers of a column of one of pslab's types
// before any value is read: the validity bitmap, fixed-width values and
// (for strings and lists) every offset, which must start at or above 0,
// never decrease and end inside the data or child array.
func validateArray(d arrow.ArrayData, typ Type) error {
	off, n := d.Offset(), d.Len()
	if off < 0 || n < 0 {
		return fmt.Errorf("negative offset %d or length %d", off, n)
	}
	end := off + n
	bufs := d.Buffers()
	need := func(i, bytes int, what string) error {
		if i >= len(bufs) {
			return fmt.Errorf("missing %s buffer", what)
		}
		got := 0
		if bufs[i] != nil {
			got = bufs[i].Len()
		}
		if got < bytes {
			return fmt.Errorf("%s buffer has %d bytes, %d rows need %d", what, got, end, bytes)
		}
		return nil
	}
	if d.NullN() != 0 && len(bufs) > 0 && bufs[0] != nil {
		if err := need(0, (end+7)/8, "validity"); err != nil {
			return err
		}
	}
	switch typ {
	case Float64, Int64:
		return need(1, 8*end, "values")
	case String:
		if err := need(1, 4*(end+1), "offsets"); err != nil {
			return err
		}
		data := 0
		if len(bufs) > 2 && bufs[2] != nil {
			data = bufs[2].Len()
		}
		return checkOffsets(bufs[1].Bytes(), off, n, data, "string data")
	case Int32List:
		if err := need(1, 4*(end+1), "offsets"); err != nil {
			return err
		}
		ch := d.Children()
		if len(ch) != 1 {
			return fmt.Errorf("list has %d child arrays, want 1", len(ch))
		}
		if err := checkOffsets(bufs[1].Bytes(), off, n, ch[0].Len(), "list values"); err != nil {
			return err
		}
		if err := validateArray(ch[0], int32Values); err != nil {
			return fmt.Errorf("list values: %w", err)
		}
		return nil
	case int32Values:
		return need(1, 4*end, "values")
	}
	return fmt.Errorf("unsupported column type %d", typ)
}

// int32Values is the child type of Int32List, used only by validateArray.
const int32Values Type = 254

// checkOffsets checks the n+1 little-endian int32 offsets from row off.
func checkOffsets(b []byte, off, n, limit int, what string) error {
	prev := int32(0)
	for r := off; r <= off+n; r++ {
		o := int32(binary.LittleEndian.Uint32(b[4*r:]))
		switch {
		case o < 0:
			return fmt.Errorf("offset %d of row %d is negative", o, r-off)
		case r > off && o < prev:
			return fmt.Errorf("offset of row %d decreases (%d after %d)", r-off, o, prev)
		case int(o) > limit:
			return fmt.Errorf("offset %d of row %d is past the %d bytes or values of %s", o, r-off, limit, what)
		}
		prev = o
	}
	return nil
}
