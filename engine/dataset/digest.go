package dataset

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// DigestKey is the schema metadata key under which Encode stores the
// SHA-256 of the file's content (contentDigest), hex-encoded.
//
// Arrow IPC files carry no checksum: a flipped byte in a data buffer reads
// as another valid number, one in a column name or a metadata value as
// another valid string. A file pslab wrote carries this digest, and every
// read verifies it (verifyDigest), so such a file is refused as corrupt
// instead of feeding a changed measurement to the models. A file with
// pslab's schema key ("pslab.schema") must carry the digest, so a flip in
// the digest's own key cannot pass the file off as unverified; files
// without either (written by other tools) are read unverified, and a pslab
// file from before digests gets one with `pslab datasets -add-digest`.
const DigestKey = "pslab.content_sha256"

// contentDigest returns the hex SHA-256 of what a reader sees in a file
// with schema as and record batches recs: every field's name, type and
// metadata, the schema metadata except DigestKey, and every value of every
// column. Values are hashed column by column across the batches, so the
// digest does not depend on how rows are split into batches, nor on
// padding or the order of flatbuffer tables. The columns must have been
// validated (validateArray) before their values are read.
func contentDigest(as *arrow.Schema, recs []arrow.Record) string {
	h := sha256.New()
	str := func(s string) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	kvs := func(md arrow.Metadata, skip string) {
		type kv struct{ k, v string }
		var all []kv
		for i, k := range md.Keys() {
			if k != skip {
				all = append(all, kv{k, md.Values()[i]})
			}
		}
		sort.Slice(all, func(i, j int) bool { return all[i].k < all[j].k })
		str(fmt.Sprint(len(all)))
		for _, e := range all {
			str(e.k)
			str(e.v)
		}
	}
	str("pslab content v2")
	kvs(as.Metadata(), DigestKey)
	str(fmt.Sprint(as.NumFields()))
	for i, f := range as.Fields() {
		str(f.Name)
		str(f.Type.String())
		kvs(f.Metadata, "")
		col := sha256.New()
		for _, rec := range recs {
			hashValues(col, rec.Column(i))
		}
		h.Write(col.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashValues writes every value of a (float64, int64, string or
// list<int32>; other types contribute their length only) to h: the
// validity of each row where a has nulls, then the values as they lie in
// the buffers (little-endian; offsets made relative to the first row's),
// a buffer at a time: hashing value by value cost 3× as much
// (BenchmarkDecodeTrace).
func hashValues(h hash.Hash, a arrow.Array) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(a.Len()))
	h.Write(n[:])
	if a.NullN() > 0 {
		valid := make([]byte, a.Len())
		for r := range valid {
			if a.IsValid(r) {
				valid[r] = 1
			}
		}
		h.Write(valid)
	}
	if a.Len() == 0 {
		return
	}
	switch a := a.(type) {
	case *array.Float64:
		h.Write(arrow.Float64Traits.CastToBytes(a.Float64Values()))
	case *array.Int64:
		h.Write(arrow.Int64Traits.CastToBytes(a.Int64Values()))
	case *array.String:
		offs := a.ValueOffsets()
		hashOffsets(h, offs)
		h.Write(a.ValueBytes()[:offs[len(offs)-1]-offs[0]])
	case *array.List:
		offs := a.Offsets()
		hashOffsets(h, offs)
		if vals, ok := a.ListValues().(*array.Int32); ok {
			h.Write(arrow.Int32Traits.CastToBytes(vals.Int32Values()[offs[0]:offs[len(offs)-1]]))
		}
	}
}

// hashOffsets writes offs relative to offs[0], as little-endian int32s.
func hashOffsets(h hash.Hash, offs []int32) {
	rel := make([]int32, len(offs))
	for i, o := range offs {
		rel[i] = o - offs[0]
	}
	h.Write(arrow.Int32Traits.CastToBytes(rel))
}

// verifyDigest checks the content of the file read by r against the digest
// in its schema metadata, if it has one. Every column is validated before
// its values are hashed; a column of a type pslab does not write cannot be
// in a file pslab wrote, and fails the comparison.
//
// A file with pslab's schema key and no digest is refused unless
// allowMissing (AddDigest).
func verifyDigest(r *ipc.FileReader, allowMissing bool) error {
	as := r.Schema()
	md := as.Metadata()
	i := md.FindKey(DigestKey)
	if i < 0 {
		if !allowMissing && md.FindKey("pslab.schema") >= 0 {
			return fmt.Errorf("corrupt or outdated Arrow IPC file: pslab wrote it (it has the pslab.schema key) "+
				"but it carries no %s digest: its metadata is damaged, or it predates digests (2026-11-28); "+
				"check the file, then `pslab datasets -add-digest FILE` adds one", DigestKey)
		}
		return nil
	}
	want := md.Values()[i]
	recs, err := readRecords(r, func(rec arrow.Record) error {
		for j, f := range as.Fields() {
			typ, ok := typeOf(f.Type)
			if !ok {
				continue
			}
			if int64(j) >= rec.NumCols() {
				return fmt.Errorf("%d columns, the schema %d", rec.NumCols(), as.NumFields())
			}
			if err := validateArray(rec.Column(j).Data(), typ); err != nil {
				return fmt.Errorf("column %q: %w", f.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer releaseAll(recs)
	if got := contentDigest(as, recs); got != want {
		return fmt.Errorf("corrupt Arrow IPC file: its content does not match the digest pslab wrote with it "+
			"(%s %.12s…, content hashes to %.12s…): the file was changed after it was written", DigestKey, want, got)
	}
	return nil
}

// withDigest returns as with DigestKey set to the digest of its content
// in recs (any digest already in its metadata is replaced).
func withDigest(as *arrow.Schema, recs []arrow.Record) *arrow.Schema {
	md := as.Metadata()
	var keys, vals []string
	for i, k := range md.Keys() {
		if k != DigestKey {
			keys, vals = append(keys, k), append(vals, md.Values()[i])
		}
	}
	d := contentDigest(as, recs)
	j := sort.SearchStrings(keys, DigestKey)
	if !sort.StringsAreSorted(keys) {
		j = len(keys)
	}
	keys = append(keys[:j], append([]string{DigestKey}, keys[j:]...)...)
	vals = append(vals[:j], append([]string{d}, vals[j:]...)...)
	nmd := arrow.NewMetadata(keys, vals)
	return arrow.NewSchema(as.Fields(), &nmd)
}

// typeOf returns pslab's column type for an Arrow type, if it is one.
func typeOf(t arrow.DataType) (Type, bool) {
	for _, cand := range []Type{Float64, Int64, String, Int32List} {
		if arrow.TypeEqual(t, cand.arrow()) {
			return cand, true
		}
	}
	return 0, false
}

// AddDigest returns the Arrow IPC file b as pslab writes it today, with
// its content digest: for a pslab file written before digests existed
// (`pslab datasets -add-digest`). A file that has a digest must match it;
// every column is read and validated as Decode does.
func AddDigest(b []byte, mem memory.Allocator) ([]byte, error) {
	var t *Table
	err := withFileReaderOpts(b, mem, true, func(r *ipc.FileReader) (err error) {
		t, err = decodeTable(r, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return Encode(t, mem)
}
