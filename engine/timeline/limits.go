package timeline

import "fmt"

// Caps on the input of EventReader (and so of Read, ReadFiles, Importer,
// StepReader and the kineto importer, which read through it). They bound
// the memory and time one file can take: without them a 2 MB .json.gz
// holding a 2 GiB event name, or a gzip bomb, held the reader for hours.
const (
	// MaxValueBytes caps one JSON value read as a whole: one event of
	// traceEvents, or one top-level key or value other than traceEvents
	// (otherData...). 64 MiB, in bytes; a value of exactly this size is
	// read. The reader's buffer never grows much beyond it.
	MaxValueBytes = 64 << 20
	// MaxStreamBytes caps the whole input as the reader sees it, that is
	// after decompression of a .json.gz: 4 GiB, in bytes. It refuses gzip
	// bombs (a small file that inflates without end) with this error
	// instead of reading on.
	MaxStreamBytes int64 = 4 << 30
)

// LimitError reports input beyond MaxValueBytes or MaxStreamBytes.
type LimitError struct {
	// Cap names the exported constant exceeded: "MaxValueBytes" or
	// "MaxStreamBytes".
	Cap string
	// Limit is the cap in bytes.
	Limit int64
	// Offset is the input offset (after decompression) where the value
	// that is too long starts, or where the input reached MaxStreamBytes.
	Offset int64
}

func (e *LimitError) Error() string {
	if e.Cap == "MaxValueBytes" {
		return fmt.Sprintf("JSON value at byte %d is longer than the %s cap (timeline.%s)", e.Offset, bytesText(e.Limit), e.Cap)
	}
	return fmt.Sprintf("input reaches the %s cap (timeline.%s) at byte %d (after decompression)", bytesText(e.Limit), e.Cap, e.Offset)
}

// bytesText writes n in the largest binary unit that divides it.
func bytesText(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
