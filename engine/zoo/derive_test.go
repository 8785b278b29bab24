package zoo

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// committedProfile reads datasets/zoo/<model>.arrow of the repository.
func committedProfile(t *testing.T, model string) *Profile {
	t.Helper()
	tab, err := dataset.Read("../../datasets/zoo/"+model+".arrow", ProfileSchema, dataset.Allocator)
	require.NoError(t, err)
	p, err := ProfileFromTable(tab)
	require.NoError(t, err)
	return p
}

// TestDeriveResNet152 derives ResNet-152 from the measured ResNet-101
// profile: torchvision's 60,192,808 parameters, 17 blocks of 10 layers
// more, [3, 8, 36, 3] bottleneck blocks, and each added block's times
// those of the block it copies.
func TestDeriveResNet152(t *testing.T) {
	t.Parallel()
	p := committedProfile(t, "resnet101")
	q, err := DeriveResNet152(p)
	require.NoError(t, err)
	require.Equal(t, "resnet152", q.Model)
	require.Equal(t, p.Batch, q.Batch)
	require.Equal(t, int64(4*60192808), q.ParamBytes())
	require.Len(t, q.Layers, len(p.Layers)+17*10)
	counts := map[string]int{}
	for _, b := range identityBlocks(q) {
		for _, st := range resnetStages {
			if strings.HasPrefix(q.Layers[b.first].Description, st.firstConv) {
				counts[st.firstConv]++
			}
		}
	}
	require.Equal(t, 7, counts[resnetStages[0].firstConv])  // 8 blocks, one downsampling
	require.Equal(t, 35, counts[resnetStages[1].firstConv]) // 36 blocks
	// Compute grows by exactly the copied blocks' times.
	var added float64
	for _, l := range q.Layers {
		if strings.Contains(l.Name, ".copy") {
			added += l.Forward + l.Backward
		}
	}
	require.InDelta(t, p.ComputeSeconds()+added, q.ComputeSeconds(), 1e-12)
	require.Greater(t, added, 0.0)
	// Every copy reads the previous block's output and feeds the next.
	require.NoError(t, q.Validate())
}

func TestRepeatBlockRejects(t *testing.T) {
	t.Parallel()
	p := committedProfile(t, "resnet101")
	_, err := RepeatBlock(p, 0, 1)
	require.ErrorContains(t, err, "not the output of an identity residual block")
	_, err = RepeatBlock(p, len(p.Layers), 1)
	require.ErrorContains(t, err, "copies of the block ending at layer")
	_, err = DeriveResNet152(committedProfile(t, "resnet50"))
	require.ErrorContains(t, err, "identity blocks starting with")
}
