package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"
)

// The Arrow reader trusts the lengths of the flatbuffer vectors in a
// file's footer: a damaged length makes it allocate gigabytes (an
// unrecoverable out-of-memory error), and a table offset pointing back
// at itself makes it recurse until the stack overflows. checkFooter walks
// the footer first, the way the reader will, and rejects vectors that do
// not fit in the footer, table references that do not point forward, and
// schemas with more than maxFields fields in all.

// maxFields bounds the fields (children included) of a schema.
const maxFields = 4096

// Slots (vtable indices) of the Arrow flatbuffer tables checkFooter reads
// (format/File.fbs and format/Schema.fbs).
const (
	footerSchema, footerDictionaries, footerRecordBatches = 1, 2, 3
	schemaFields, schemaMetadata                          = 1, 2
	fieldTypeType, fieldType, fieldChildren, fieldMeta    = 2, 3, 5, 6
	unionTypeIDs                                          = 1
	typeUnion                                             = 14 // Type.Union
	blockSize                                             = 24 // struct Block
)

var (
	errFooter = errors.New("corrupt Arrow IPC footer")
	errLead   = errors.New("corrupt Arrow IPC file: the schema message at its start")
)

// checkFooter validates the footer of the Arrow IPC file b. A file too
// damaged to have a footer is left to the reader, which reports it.
func checkFooter(b []byte) error {
	const tail = 4 + 6 // footer length + "ARROW1"
	if len(b) < 2*6+4+tail {
		return nil
	}
	size := int64(binary.LittleEndian.Uint32(b[len(b)-tail:]))
	if size <= 0 || size+16 > int64(len(b)) {
		return nil
	}
	buf := b[int64(len(b))-tail-size : len(b)-tail]
	c := &flatChecker{buf: buf}
	root, err := c.ref(0)
	if err != nil {
		return err
	}
	footer := &flatbuffers.Table{Bytes: buf, Pos: root}
	for _, slot := range []int{footerDictionaries, footerRecordBatches} {
		if _, _, err := c.vector(footer, slot, blockSize); err != nil {
			return err
		}
	}
	schema, ok, err := c.table(footer, footerSchema)
	if err != nil || !ok {
		return err
	}
	if err := c.keyValues(schema, schemaMetadata); err != nil {
		return err
	}
	return c.fields(schema, schemaFields, 0)
}

// flatChecker walks one flatbuffer; nfields counts the fields seen; lead
// says it is the leading schema message, not the footer (for errors).
type flatChecker struct {
	buf     []byte
	nfields int
	lead    bool
}

// base is the error c's messages wrap.
func (c *flatChecker) base() error {
	if c.lead {
		return errLead
	}
	return errFooter
}

// Slots of the Message table (format/Message.fbs) and the value of its
// header type for a Schema.
const messageHeader, messageMetadata = 2, 4

// checkLeadingMessage validates the schema message that opens the Arrow
// IPC file b (after the 8 bytes of magic and padding: the continuation
// marker, the metadata length and the Message flatbuffer) as checkFooter
// validates the footer, before the stream reader parses it.
func checkLeadingMessage(b []byte) error {
	if len(b) < 16 {
		return errLead
	}
	p := b[8:]
	if binary.LittleEndian.Uint32(p) != 0xFFFFFFFF {
		return fmt.Errorf("%w: no continuation marker", errLead)
	}
	n := int64(int32(binary.LittleEndian.Uint32(p[4:])))
	if n <= 0 || 8+n > int64(len(p)) {
		return fmt.Errorf("%w: length %d does not fit in the file", errLead, n)
	}
	c := &flatChecker{buf: p[8 : 8+n], lead: true}
	root, err := c.ref(0)
	if err != nil {
		return err
	}
	msg := &flatbuffers.Table{Bytes: c.buf, Pos: root}
	if err := c.keyValues(msg, messageMetadata); err != nil {
		return err
	}
	schema, ok, err := c.table(msg, messageHeader)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: no header", errLead)
	}
	if err := c.keyValues(schema, schemaMetadata); err != nil {
		return err
	}
	return c.fields(schema, schemaFields, 0)
}

// ref follows the offset stored at pos and requires it to point forward
// inside the buffer (so no table can be reached from itself).
func (c *flatChecker) ref(pos flatbuffers.UOffsetT) (flatbuffers.UOffsetT, error) {
	if int64(pos)+4 > int64(len(c.buf)) {
		return 0, fmt.Errorf("%w: offset at %d past the end", c.base(), pos)
	}
	off := binary.LittleEndian.Uint32(c.buf[pos:])
	to := int64(pos) + int64(off)
	if off == 0 || to+4 > int64(len(c.buf)) {
		return 0, fmt.Errorf("%w: offset %d at %d does not point forward inside the flatbuffer", c.base(), off, pos)
	}
	return flatbuffers.UOffsetT(to), nil
}

// table returns the sub-table in slot of t, if present.
func (c *flatChecker) table(t *flatbuffers.Table, slot int) (*flatbuffers.Table, bool, error) {
	o := t.Offset(flatbuffers.VOffsetT(4 + 2*slot))
	if o == 0 {
		return nil, false, nil
	}
	pos, err := c.ref(t.Pos + flatbuffers.UOffsetT(o))
	if err != nil {
		return nil, false, err
	}
	return &flatbuffers.Table{Bytes: c.buf, Pos: pos}, true, nil
}

// vector returns the start and length of the vector in slot of t and
// requires its elem-byte elements to fit in the buffer.
func (c *flatChecker) vector(t *flatbuffers.Table, slot, elem int) (flatbuffers.UOffsetT, int, error) {
	o := t.Offset(flatbuffers.VOffsetT(4 + 2*slot))
	if o == 0 {
		return 0, 0, nil
	}
	if _, err := c.ref(t.Pos + flatbuffers.UOffsetT(o)); err != nil {
		return 0, 0, err
	}
	n, start := t.VectorLen(flatbuffers.UOffsetT(o)), t.Vector(flatbuffers.UOffsetT(o))
	if int64(start)+int64(n)*int64(elem) > int64(len(c.buf)) {
		return 0, 0, fmt.Errorf("%w: vector of %d elements at %d does not fit in %d bytes", c.base(), n, start, len(c.buf))
	}
	return start, n, nil
}

// keyValues checks the custom metadata vector in slot of t.
func (c *flatChecker) keyValues(t *flatbuffers.Table, slot int) error {
	start, n, err := c.vector(t, slot, 4)
	for i := 0; err == nil && i < n; i++ {
		_, err = c.ref(start + flatbuffers.UOffsetT(4*i))
	}
	return err
}

// fields checks the vector of Field tables in slot of t and, recursively,
// their children, metadata and union type ids.
func (c *flatChecker) fields(t *flatbuffers.Table, slot, depth int) error {
	if depth > 64 {
		return fmt.Errorf("%w: fields nested more than 64 deep", c.base())
	}
	start, n, err := c.vector(t, slot, 4)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if c.nfields++; c.nfields > maxFields {
			return fmt.Errorf("%w: more than %d fields", c.base(), maxFields)
		}
		pos, err := c.ref(start + flatbuffers.UOffsetT(4*i))
		if err != nil {
			return err
		}
		f := &flatbuffers.Table{Bytes: c.buf, Pos: pos}
		if err := c.keyValues(f, fieldMeta); err != nil {
			return err
		}
		if f.GetUint8Slot(flatbuffers.VOffsetT(4+2*fieldTypeType), 0) == typeUnion {
			u, ok, err := c.table(f, fieldType)
			if err != nil {
				return err
			}
			if ok {
				if _, _, err := c.vector(u, unionTypeIDs, 4); err != nil {
					return err
				}
			}
		}
		if err := c.fields(f, fieldChildren, depth+1); err != nil {
			return err
		}
	}
	return nil
}
