package collection

import (
	"strconv"
	"strings"

	"pslab/engine/dataset"
)

// AccountingFile holds one row per process of every run of a
// configuration (AccountingSchema).
const AccountingFile = "accounting.arrow"

// AccountingSchema is the per-process CPU accounting of a configuration's
// runs (engine/testbed doc.go, "Artifact accounting").
var AccountingSchema = &dataset.Schema{Name: "testbed-accounting", Columns: []dataset.Column{
	{Name: "run", Type: dataset.String, Rule: dataset.Enum, Values: []string{"profile", "throughput"}, Doc: "1-worker profiling run or throughput run"},
	{Name: "workers", Type: dataset.Int64, Rule: dataset.Positive, Doc: "W, workers in the run"},
	{Name: "repetition", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "repetition index (0 for the profile)"},
	{Name: "process", Type: dataset.String, Rule: dataset.Any, Doc: "\"ps <i>\", \"worker <w>\" or \"host\" (all CPUs)"},
	{Name: "wall_s", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "s", Doc: "time between the first and last /proc sample of the process"},
	{Name: "cpu", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "cores", Doc: "(utime+stime)/wall from /proc/PID/stat; host: busy share of all CPUs from /proc/stat (0..1)"},
	{Name: "runq_wait", Type: dataset.Float64, Rule: dataset.NonNegative, Doc: "time runnable but not running (/proc/PID/task/*/schedstat field 2, summed over threads) / wall"},
	{Name: "sched_events", Type: dataset.Float64, Rule: dataset.NonNegative, Doc: "times its threads were scheduled onto a CPU (schedstat field 3, summed over threads; 0 for the host)"},
	{Name: "retrans", Type: dataset.Float64, Rule: dataset.NonNegative, Doc: "TCP segments retransmitted / sent in the process's network namespace (/proc/PID/net/snmp; 0 for the host)"},
	{Name: "retrans_spurious", Type: dataset.Float64, Rule: dataset.NonNegative, Doc: "TCP segments its peers reported receiving twice (D-SACK, /proc/PID/net/netstat TCPDSACKRecvSegs) / sent: retransmissions that lost nothing (accounting version 4; 0 for the host)"},
	{Name: "contention", Type: dataset.Float64, Rule: dataset.NonNegative, Doc: "run-queue wait beyond sched_events × the probe's wait per event, / wall (doc.go, Artifact accounting)"},
	{Name: "dilation", Type: dataset.Float64, Rule: dataset.Positive, Unit: "1", Doc: "stretch factor k of the run (1: as configured; accounting version 3)"},
}}

// AcctVersion is recorded as testbed.acct in every file of a measurement
// with artifact accounting; datasets without it predate issue #19.
// Version 3 (issue 29) judges points by dilation sensitivity and
// intervals over repetitions and writes PointsFile and ModesFile;
// version 2 judged the contention (≤ 2%) and batch-means intervals.
// Version 4 adds the D-SACKed retransmissions (retrans_spurious) and
// judges only the others against accounting.MaxRetrans; its runs are
// version 3's otherwise, so a version 3 dataset stays current
// (UpToDate) and its every retransmission counts.
const AcctVersion = "4"

// currentAcct are the accounting versions whose datasets UpToDate keeps.
var currentAcct = map[string]bool{"3": true, AcctVersion: true}

// acctExtra adds the accounting keys to a provenance's Extra.
func (o *Outcome) acctExtra(x map[string]string) {
	a := &o.Acct
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	list := func(v []float64) string {
		s := make([]string, len(v))
		for i, y := range v {
			s[i] = f(y)
		}
		return strings.Join(s, ",")
	}
	x["testbed.config_hash"] = o.Config.Hash()
	if a.Messages == 0 {
		return // no probe run (testbed reduce): no accounting
	}
	x["testbed.acct"] = AcctVersion
	x["testbed.acct.message_cost_s"] = f(a.MessageCost)
	x["testbed.acct.messages_per_step"] = strconv.Itoa(a.Messages)
	x["testbed.acct.rtt_s"] = f(a.RTT)
	x["testbed.acct.burst_s"] = f(a.Burst)
	x["testbed.acct.step_s"] = f(a.Step)
	x["testbed.acct.unscaled_share"] = f(a.Unscaled)
	x["testbed.acct.runq_wait"] = f(a.RunQueue)
	x["testbed.acct.runq_wait_at"] = a.RunQueueAt
	x["testbed.acct.runq_baseline_s"] = f(a.Baseline)
	x["testbed.acct.contention"] = f(a.Contention)
	x["testbed.acct.contention_at"] = a.ContentionAt
	x["testbed.acct.retrans"] = f(a.Retrans)
	x["testbed.acct.retrans_at"] = a.RetransAt
	x["testbed.acct.retrans_lost"] = f(a.Lost)
	x["testbed.acct.retrans_lost_at"] = a.LostAt
	x["testbed.acct.other_cores"] = f(a.Other)
	x["testbed.acct.other_at"] = a.OtherAt
	x["testbed.acct.cpu_max"] = f(a.CPU)
	x["testbed.acct.host_cpu_max"] = f(a.HostCPU)
	x["testbed.acct.ci95_rel"] = list(a.CI)
	x["testbed.acct.rep_ci95_rel"] = list(a.RepCI)
	x["testbed.acct.step_cv"] = list(a.CV)
	x["testbed.acct.host_limited"] = strconv.FormatBool(a.HostLimited())
	x["testbed.acct.host_limited_cause"] = a.Cause
}

// accountingTable builds AccountingFile.
func (o *Outcome) accountingTable(prov dataset.Provenance) (*dataset.Table, error) {
	t := dataset.NewTable(AccountingSchema, prov)
	add := func(kind string, r Run) error {
		for _, p := range r.Usage.Procs {
			if err := t.Append(kind, r.Workers, r.Repetition, p.Name, p.Wall, p.CPU, p.RunQueue, p.Slices, p.Retrans, p.Spurious, p.Contention, r.dilation()); err != nil {
				return err
			}
		}
		wall := r.Wall.Seconds()
		return t.Append(kind, r.Workers, r.Repetition, "host", wall, r.Usage.HostCPU, 0.0, 0.0, 0.0, 0.0, 0.0, r.dilation())
	}
	if err := add("profile", o.Profile); err != nil {
		return nil, err
	}
	for _, r := range o.Runs {
		if err := add("throughput", r); err != nil {
			return nil, err
		}
	}
	return t, nil
}
