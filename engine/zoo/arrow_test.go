package zoo

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// normalized replaces empty Inputs by nil: Parse writes empty slices, a
// table cannot tell them apart.
func normalized(p *Profile) *Profile {
	q := *p
	q.Layers = append([]Layer(nil), p.Layers...)
	for i := range q.Layers {
		if len(q.Layers[i].Inputs) == 0 {
			q.Layers[i].Inputs = nil
		}
	}
	return &q
}

func TestProfileTableRoundTripToy(t *testing.T) {
	t.Parallel()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	p := Toy()
	tab, err := ProfileTable(p, dataset.Provenance{Origin: dataset.Derived, Command: "go test"})
	require.NoError(t, err)
	require.Equal(t, 4, tab.Len())
	require.Equal(t, []string{"conv0", "conv1", "fc0", "fc1"}, tab.Strings("layer"))
	require.Equal(t, []float64{0.010, 0.020, 0.005, 0.002}, tab.Floats("forward_s"))
	require.Equal(t, []int64{2e6, 4e6, 16e6, 8e6}, tab.Ints("param_bytes"))
	require.Equal(t, [][]int32{{}, {0}, {1}, {2}}, tab.Lists("inputs"))
	require.Equal(t, p.Source, tab.Provenance.Source, "empty provenance source takes the profile's")

	path := filepath.Join(t.TempDir(), "toy.arrow")
	require.NoError(t, dataset.Write(path, tab, mem))
	back, err := dataset.Read(path, ProfileSchema, mem)
	require.NoError(t, err)
	require.Equal(t, "s", ProfileSchema.Columns[ProfileSchema.Index("forward_s")].Unit)
	q, err := ProfileFromTable(back)
	require.NoError(t, err)
	require.Equal(t, normalized(p), q)
}

func TestProfileTableRoundTripRealProfiles(t *testing.T) {
	t.Parallel()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, m := range []string{"inception_v3", "resnet50"} {
		p := loadProfile(t, m)
		tab, err := ProfileTable(p, dataset.Provenance{Source: "pipedream " + m})
		require.NoError(t, err)
		b, err := dataset.Encode(tab, mem)
		require.NoError(t, err)
		back, err := dataset.Decode(b, ProfileSchema, mem)
		require.NoError(t, err)
		q, err := ProfileFromTable(back)
		require.NoError(t, err)
		require.Equal(t, "pipedream "+m, q.Source)
		q.Source = p.Source
		require.Equal(t, normalized(p), q, m)
		require.Equal(t, p.InputSide, q.InputSide)
		require.Equal(t, p.ParamBytes(), q.ParamBytes())
	}
}

func TestProfileTableRejects(t *testing.T) {
	t.Parallel()
	_, err := ProfileTable(nil, dataset.Provenance{})
	require.ErrorContains(t, err, "nil profile")
	bad := Toy()
	bad.Layers[2].Forward = -1
	_, err = ProfileTable(bad, dataset.Provenance{})
	require.ErrorContains(t, err, `layer "fc0": negative Forward`)

	_, err = ProfileFromTable(dataset.NewTable(ProfileSchema, dataset.Provenance{}))
	require.ErrorContains(t, err, "empty table")

	mixed := func(edit func(row []any)) error {
		tab := dataset.NewTable(ProfileSchema, dataset.Provenance{})
		rows := [][]any{
			{"m", "a", "x", 0.1, 0.2, int64(1), int64(4), []int32{}, int64(8)},
			{"m", "b", "y", 0.1, 0.2, int64(1), int64(4), []int32{0}, int64(8)},
		}
		edit(rows[1])
		for _, r := range rows {
			require.NoError(t, tab.Append(r...))
		}
		_, err := ProfileFromTable(tab)
		return err
	}
	require.NoError(t, mixed(func([]any) {}))
	require.ErrorContains(t, mixed(func(r []any) { r[0] = "other" }), `column "model" row 1`)
	require.ErrorContains(t, mixed(func(r []any) { r[8] = int64(16) }), `column "batch" row 1`)
	require.ErrorContains(t, mixed(func(r []any) { r[7] = []int32{1} }), "not an earlier layer")
	require.ErrorContains(t, mixed(func(r []any) { r[1] = "a" }), "duplicate")

	tab := dataset.NewTable(ProfileSchema, dataset.Provenance{Extra: map[string]string{metaInputSide: "x"}})
	require.NoError(t, tab.Append("m", "a", "x", 0.1, 0.2, int64(1), int64(4), []int32{}, int64(8)))
	_, err = ProfileFromTable(tab)
	require.ErrorContains(t, err, "input_side_px")
}
