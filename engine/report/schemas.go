package report

import (
	"os"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/importer"
	"pslab/engine/testbed/collection"
	"pslab/engine/zoo"
)

// knownSchemas are the schemas whose column descriptions a dataset page
// shows (matched by the pslab.schema name its file records).
var knownSchemas = []*dataset.Schema{dataset.TraceSchema, dataset.MeasurementSchema, dataset.PhasesSchema,
	dataset.InstanceSchema, zoo.ProfileSchema, importer.PhillySchema,
	collection.RunsSchema, collection.StepsSchema, collection.AccountingSchema}

// columnDocs returns what each column of the dataset at path (schema
// name schema) holds, by column name: from the schema definition, or for
// a reported table from its source (the .toml beside the .arrow). Columns
// without a description are absent.
func columnDocs(path, schema string) map[string]string {
	out := map[string]string{}
	var s *dataset.Schema
	for _, k := range knownSchemas {
		if k.Name == schema {
			s = k
		}
	}
	if strings.HasPrefix(schema, "reported:") {
		src := strings.TrimSuffix(path, ".arrow") + ".toml"
		if _, err := os.Stat(src); err == nil {
			if t, err := dataset.ReadReported(src); err == nil {
				s = t.Schema
			}
		}
	}
	if s == nil {
		return out
	}
	for _, c := range s.Columns {
		if c.Doc != "" {
			out[c.Name] = c.Doc
		}
	}
	return out
}
