package collection

import (
	"fmt"
	"path/filepath"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/dataset"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
)

// CommittedExtra returns the Extra metadata of the committed dataset in
// dir (its throughput.arrow), or nil if there is none.
func CommittedExtra(dir string) map[string]string {
	t, err := dataset.Read(filepath.Join(dir, ThroughputFile), dataset.MeasurementSchema, memory.NewGoAllocator())
	if err != nil {
		return nil
	}
	if t.Provenance.Extra == nil {
		return map[string]string{}
	}
	return t.Provenance.Extra
}

// UpToDate reports whether the committed dataset in dir was measured
// from c (same Config.Hash) with accounting of this version (or one
// whose runs it judges alike, currentAcct) on the
// current namespace network (network.Netns), and says so or why not. A
// host_limited dataset is up to date unless retryLimited: on a host too
// small for a configuration a new run is flagged again, and the
// collection must be resumable there (`testbed run -retry-limited`
// measures such datasets again, on a quieter or larger host).
func UpToDate(dir string, c config.Config, retryLimited bool) (bool, string) {
	x := CommittedExtra(dir)
	switch {
	case x == nil:
		return false, "no committed dataset"
	case x["testbed.config_hash"] != c.Hash():
		return false, fmt.Sprintf("committed dataset has configuration hash %q, configuration has %q", x["testbed.config_hash"], c.Hash())
	case x["testbed.acct"] == "":
		return false, "committed dataset has no accounting (pre-#19 dataset)"
	case !currentAcct[x["testbed.acct"]]:
		return false, fmt.Sprintf("committed dataset has accounting version %s, this pslab %s", x["testbed.acct"], AcctVersion)
	case network.IsNetns(x["testbed.network"]) && x["testbed.network"] != network.Netns:
		return false, fmt.Sprintf("committed dataset was measured on network %s, the testbed's is now %s", x["testbed.network"], network.Netns)
	case retryLimited && x["testbed.acct.host_limited"] != "false":
		return false, "committed dataset is host_limited: " + x["testbed.acct.host_limited_cause"]
	case x["testbed.acct.host_limited"] != "false":
		return true, fmt.Sprintf("committed dataset has the same configuration hash %s (host_limited: %s)", c.Hash(), x["testbed.acct.host_limited_cause"])
	}
	return true, fmt.Sprintf("committed dataset has the same configuration hash %s", c.Hash())
}
