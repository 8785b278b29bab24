package sched

import "fmt"

// responses returns the post-warm-up response times (departure order) and
// the number of completions discarded as warm-up.
func (s *sim) responses() ([]float64, int) {
	n := s.done.len()
	warm := int(s.cfg.Warmup * float64(n))
	r := make([]float64, 0, n-warm)
	for i := warm; i < n; i++ {
		j := s.jobs.at(s.done.at(i).id)
		r = append(r, j.End-j.Arrival)
	}
	return r, warm
}

// converged applies the stopping rule: the 95% CI half-width of the mean
// response time, by batch means over the post-warm-up completions, is at
// most Precision times the mean.
func (s *sim) converged() bool {
	r, _ := s.responses()
	bm := batchMeans(r, s.cfg.Batches)
	if bm == nil {
		return false
	}
	return ciHalfWidth(bm) <= s.cfg.Precision*mean(r)
}

// finish fills the statistics of the result.
func (s *sim) finish() {
	res := &s.res
	res.End = s.now
	res.Arrived, res.Completed = s.arrived, s.done.len()
	res.Jobs = s.jobs.flatten()
	r, warm := s.responses()
	res.Warmup = warm
	res.ResponseTimes = r
	t0, n0, b0 := 0.0, 0.0, 0.0
	if warm > 0 {
		c := s.done.at(warm - 1)
		t0, n0, b0 = c.t, c.cumN, c.cumBusy
	}
	if span := s.now - t0; span > 0 {
		res.MeanInSystem = (s.areaN - n0) / span
		res.Utilization = (s.areaBusy - b0) / span / float64(s.cfg.Nodes)
	}
	if len(s.cfg.Progress) > 0 {
		res.MeanProgressTime = make([]float64, len(s.cfg.Progress))
		for k := range res.MeanProgressTime {
			sum := 0.0
			for i := warm; i < s.done.len(); i++ {
				j := s.jobs.at(s.done.at(i).id)
				sum += j.Progress[k] - j.Arrival
			}
			if len(r) > 0 {
				res.MeanProgressTime[k] = sum / float64(len(r))
			}
		}
	}
	if res.Unstable {
		return
	}
	res.MeanResponse = mean(r)
	if bm := batchMeans(r, s.cfg.Batches); bm != nil {
		res.HalfWidth = ciHalfWidth(bm)
		res.Converged = !s.trace && s.done.len() >= s.cfg.MinJobs && res.HalfWidth <= s.cfg.Precision*res.MeanResponse
	}
	if !s.trace && !res.Converged && s.backlogGrows(warm) {
		res.Unstable = true
		res.Reason += "; jobs in system trending up across batches"
		res.MeanResponse, res.HalfWidth = 0, 0
	}
}

// backlogGrows splits the post-warm-up completions into Batches intervals
// and tests the time-average number in system per interval for an upward
// trend (trendingUp).
func (s *sim) backlogGrows(warm int) bool {
	n := s.done.len() - warm
	B := s.cfg.Batches
	m := n / B
	if m < 1 {
		return false
	}
	at := func(k int) (float64, float64) { // time and ∫N before completion index k
		if k == 0 {
			return 0, 0
		}
		c := s.done.at(k - 1)
		return c.t, c.cumN
	}
	avg := make([]float64, B)
	first := s.done.len() - m*B
	for b := range avg {
		t0, a0 := at(first + b*m)
		t1, a1 := at(first + (b+1)*m)
		if t1 <= t0 {
			return false
		}
		avg[b] = (a1 - a0) / (t1 - t0)
	}
	return trendingUp(avg)
}

// String summarizes the result on one line.
func (r Result) String() string {
	if r.Unstable {
		return fmt.Sprintf("%s load %.3g: unstable (%s)", r.Policy, r.Load, r.Reason)
	}
	return fmt.Sprintf("%s load %.3g: T = %.6g ± %.3g s over %d jobs (%s)", r.Policy, r.Load, r.MeanResponse, r.HalfWidth, len(r.ResponseTimes), r.Reason)
}
