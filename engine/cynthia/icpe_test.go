package cynthia

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestICPEHandComputed(t *testing.T) {
	t.Parallel()
	// K = 64, T_p = 1 s, T_C = 0.25 s, U_1 = 0.2.
	m := ICPE{Batch: 64, Tp: 1, Tc: 0.25, U1: 0.2}
	x, err := m.Throughput(1)
	require.NoError(t, err)
	require.InDelta(t, 64/1.5, x, 1e-12) // 64/(1·max(1,0.2)+0.5)
	x, err = m.Throughput(10)
	require.NoError(t, err)
	require.InDelta(t, 640/2.5, x, 1e-12) // 640/(1·max(1,2)+0.5)

	h := m.HalvedTC()
	require.Equal(t, 0.125, h.Tc)
	// U_1' = 0.2·(1+0.5)/(2·(1+0.25)) = 0.12.
	require.InDelta(t, 0.12, h.U1, 1e-15)
	x, err = h.Throughput(10)
	require.NoError(t, err)
	require.InDelta(t, 640/(1.2+0.25), x, 1e-12)
}

// TestICPEHalvedConsistent: when U_1 = 2T_C/(T_p+2T_C), halving T_C gives
// the same formula evaluated at T_C/2.
func TestICPEHalvedConsistent(t *testing.T) {
	t.Parallel()
	u, err := SingleWorkerUtilization(2, 0.5)
	require.NoError(t, err)
	require.InDelta(t, 1.0/3, u, 1e-15)
	h := ICPE{Batch: 1, Tp: 2, Tc: 0.5, U1: u}.HalvedTC()
	want, err := SingleWorkerUtilization(2, 0.25)
	require.NoError(t, err)
	require.InDelta(t, want, h.U1, 1e-15)
}

// TestICPEMatchesCynthiaNetworkOnly (I-23): the restatement equals Cynthia's
// ASP model when the PS CPU term is dropped (c_prof = 0), workers have
// capability c_base, U_1 = b_prof/b_ps, T_p = w_iter/c_base and
// T_C = g_param/b_ps.
func TestICPEMatchesCynthiaNetworkOnly(t *testing.T) {
	t.Parallel()
	w := workload("vgg19")
	w.CProf = 0
	m := ICPE{Batch: float64(w.Batch), Tp: w.WIter / cM4, Tc: w.GParam / bPS110, U1: w.BProf / bPS110}
	for n := 1; n <= 16; n++ {
		b, err := ModelCynthia.PredictHomogeneous(w, homog(m4(), n, 1, cM4))
		require.NoError(t, err)
		x, err := m.Throughput(n)
		require.NoError(t, err)
		require.InEpsilon(t, b.Throughput, x, 1e-12, "n=%d", n)
	}
	// With the CPU term (c_prof = 0.33 GFLOP/s) they differ once the PS
	// CPU binds, which never happens for VGG-19: the network binds first.
	w = workload("mnist")
	w.Sync = ASP
	m = ICPE{Batch: float64(w.Batch), Tp: w.WIter / cM4, Tc: w.GParam / bPS110, U1: w.BProf / bPS110}
	b, err := ModelCynthia.PredictHomogeneous(w, homog(m4(), 4, 1, cM4))
	require.NoError(t, err)
	require.Equal(t, CPUBottleneck, b.Bottleneck)
	x, err := m.Throughput(4)
	require.NoError(t, err)
	require.Greater(t, x, b.Throughput)
}

func TestICPEInvalid(t *testing.T) {
	t.Parallel()
	good := ICPE{Batch: 1, Tp: 1, Tc: 1, U1: 0.5}
	for _, tc := range []struct {
		field string
		m     ICPE
	}{
		{"Batch", ICPE{Batch: 0, Tp: 1, U1: 0.5}},
		{"Tp", ICPE{Batch: 1, Tp: -1, U1: 0.5}},
		{"Tc", ICPE{Batch: 1, Tp: 1, Tc: -1, U1: 0.5}},
		{"U1", ICPE{Batch: 1, Tp: 1, U1: 1.5}},
		{"U1", ICPE{Batch: 1, Tp: 1, U1: -0.1}},
	} {
		_, err := tc.m.Throughput(1)
		require.ErrorContains(t, err, tc.field)
	}
	_, err := good.Throughput(0)
	require.ErrorContains(t, err, "workers")
	_, err = SingleWorkerUtilization(0, 1)
	require.ErrorContains(t, err, "Tp")
	_, err = SingleWorkerUtilization(1, -1)
	require.ErrorContains(t, err, "Tc")
}
