package dataset

import (
	"sort"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
)

// Provenance says where a dataset came from. It is stored in the Arrow
// schema metadata under the keys "pslab.schema", "source", "licence",
// "command", "notes", one "unit.<column>" key per column with a unit, and
// any Extra keys.
type Provenance struct {
	// Origin is "measured" (a real run or real external data), "reported"
	// (printed in a paper) or "derived" (computed from other inputs).
	Origin  string
	Source  string // the original data: citation, repository and commit, or testbed run
	Licence string
	Command string // the command that produced this file
	Notes   string
	// Extra holds dataset-specific facts (bandwidth, scale factors, kernel…).
	Extra map[string]string
}

// reserved metadata keys, not returned in Extra.
var reserved = map[string]bool{DigestKey: true, "pslab.schema": true, "origin": true, "source": true, "licence": true, "command": true, "notes": true}

func (p Provenance) metadata(s *Schema) arrow.Metadata {
	kv := map[string]string{"pslab.schema": s.Name}
	set := func(k, v string) {
		if v != "" {
			kv[k] = v
		}
	}
	set("origin", p.Origin)
	set("source", p.Source)
	set("licence", p.Licence)
	set("command", p.Command)
	set("notes", p.Notes)
	for _, c := range s.Columns {
		set("unit."+c.Name, c.Unit)
	}
	for k, v := range p.Extra {
		set(k, v)
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys) // byte-stable files
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = kv[k]
	}
	return arrow.NewMetadata(keys, vals)
}

func provenanceFrom(md arrow.Metadata) (schemaName string, p Provenance) {
	get := func(k string) string {
		if i := md.FindKey(k); i >= 0 {
			return md.Values()[i]
		}
		return ""
	}
	p = Provenance{Origin: get("origin"), Source: get("source"), Licence: get("licence"), Command: get("command"), Notes: get("notes")}
	for i, k := range md.Keys() {
		if reserved[k] || strings.HasPrefix(k, "unit.") {
			continue
		}
		if p.Extra == nil {
			p.Extra = map[string]string{}
		}
		p.Extra[k] = md.Values()[i]
	}
	return get("pslab.schema"), p
}
