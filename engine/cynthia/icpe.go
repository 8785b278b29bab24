package cynthia

import "fmt"

// ICPE is Cynthia as restated by icpe20 (Li et al., ICPE'20, §1 and §4.4;
// CATALOGUE §B.1.7, I-23): with W workers,
//
//	X(W) = W·K / (T_p·max(1, W·U_1) + 2·T_C)   examples/s.
//
// It keeps only the network term of Cynthia's utilization rule; it equals
// ModelCynthia for an ASP workload with c_prof = 0 on workers of
// capability c_base when U_1 = b_prof/b_ps, T_p = w_iter/c_base and
// T_C = g_param/b_ps.
type ICPE struct {
	// Batch is K, examples per worker step. Must be > 0.
	Batch float64
	// Tp is T_p, the batch processing (computation) time in seconds, > 0.
	Tp float64
	// Tc is T_C, the one-way model/update transmission time in seconds,
	// >= 0.
	Tc float64
	// U1 is U_1, the network utilization measured with a single worker,
	// a fraction in [0, 1].
	U1 float64
}

func (m ICPE) check() error {
	if err := checkPositive("icpe", "", "Batch", m.Batch); err != nil {
		return err
	}
	if err := checkPositive("icpe", "", "Tp", m.Tp); err != nil {
		return err
	}
	if err := checkNonNegative("icpe", "", "Tc", m.Tc); err != nil {
		return err
	}
	if err := checkNonNegative("icpe", "", "U1", m.U1); err != nil {
		return err
	}
	if m.U1 > 1 {
		return fmt.Errorf("icpe: U1 must be <= 1, got %g", m.U1)
	}
	return nil
}

// Throughput is X(W) in examples/s for W >= 1 workers.
func (m ICPE) Throughput(workers int) (float64, error) {
	if err := m.check(); err != nil {
		return 0, prefixed(err)
	}
	if workers < 1 {
		return 0, fmt.Errorf("cynthia: icpe: workers must be >= 1, got %d", workers)
	}
	W := float64(workers)
	return W * m.Batch / (m.Tp*max(1, W*m.U1) + 2*m.Tc), nil
}

// HalvedTC is icpe20's "modified" variant: T_C replaced by T_C/2
// (separate uplink and downlink resources), which icpe20 says also
// changes U_1. The new U_1 assumes the single-worker cycle is
// T_p + 2·T_C with the network busy for U_1 of it; halving the busy time
// and shortening the cycle by T_C gives U_1' = U_1·(T_p+2T_C)/(2(T_p+T_C)).
// When U_1 = 2T_C/(T_p+2T_C) this is exactly 2T_C'/(T_p+2T_C'). The
// update rule for U_1 is our assumption; icpe20 does not print it.
func (m ICPE) HalvedTC() ICPE {
	h := m
	h.Tc = m.Tc / 2
	h.U1 = m.U1 * (m.Tp + 2*m.Tc) / (2 * (m.Tp + m.Tc))
	return h
}

// SingleWorkerUtilization is the network utilization of one worker whose
// step is T_p of computation followed by 2·T_C of transfer (seconds):
// U_1 = 2T_C/(T_p + 2T_C). It is a derived value for use when U_1 was not
// measured. tp must be > 0 and tc >= 0.
func SingleWorkerUtilization(tp, tc float64) (float64, error) {
	if err := checkPositive("icpe", "", "Tp", tp); err != nil {
		return 0, prefixed(err)
	}
	if err := checkNonNegative("icpe", "", "Tc", tc); err != nil {
		return 0, prefixed(err)
	}
	return 2 * tc / (tp + 2*tc), nil
}
