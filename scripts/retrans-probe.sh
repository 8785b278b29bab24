#!/bin/sh
# retrans-probe.sh: what kind of TCP retransmissions a netns testbed run
# makes (issue 29, item 4). While the run's namespaces exist it samples,
# every INTERVAL seconds, each host's TCP counters (/proc/net/snmp and
# /proc/net/netstat inside the namespace) and the drops of every qdisc;
# when they go it prints, per host, the last sample of:
#   OutSegs, RetransSegs        what the accounting's retrans limit counts
#   TCPLossProbes               tail loss probes sent (timer 2·SRTT)
#   TCPLossProbeRecovery        losses the probes repaired
#   TCPTimeouts, TCPSpuriousRTOs  retransmission timeouts, and those undone
#   TCPFastRetrans              retransmissions on duplicate ACKs / SACK
#   TCPDSACKRecv                retransmitted segments the receiver reports
#                               it already had (D-SACK): spurious ones
#   qdisc_dropped               packets the shapers dropped (all qdiscs)
# A retransmission the receiver D-SACKs, with no qdisc drop, lost nothing.
# The counters are per namespace and cumulative over the run(s) of one
# configuration (a namespace lives as long as its configuration's runs).
#
# usage: scripts/retrans-probe.sh [INTERVAL] > retrans.txt   (start it, then the run)
set -eu
interval=${1:-2}
while ! ip netns list | grep -q '^pslab-'; do sleep 0.2; done
last=$(mktemp -d)
trap 'rm -rf "$last"' EXIT
while ip netns list | grep -q '^pslab-'; do
	for ns in $(ip netns list | awk '{print $1}' | grep '^pslab-' || true); do
		{
			ip netns exec "$ns" cat /proc/net/snmp /proc/net/netstat 2>/dev/null | awk '
				/^(Tcp|TcpExt):/ { if (!(($1) in head)) { head[$1] = $0; next } n = split(head[$1], k); split($0, v); for (i = 2; i <= n; i++) print k[i], v[i] }'
			ip netns exec "$ns" tc -s qdisc show 2>/dev/null | awk '/dropped/ { for (i = 1; i < NF; i++) if ($i == "(dropped") { gsub(",", "", $(i+1)); d += $(i+1) } } END { print "qdisc_dropped", d + 0 }'
		} > "$last/$ns.tmp" && mv "$last/$ns.tmp" "$last/$ns"
	done
	sleep "$interval"
done
for f in "$last"/*; do
	[ -e "$f" ] || continue
	printf '%s' "$(basename "$f")"
	awk '$1 ~ /^(OutSegs|RetransSegs|TCPLossProbes|TCPLossProbeRecovery|TCPTimeouts|TCPSpuriousRTOs|TCPFastRetrans|TCPDSACKRecv|qdisc_dropped)$/ { printf " %s=%s", $1, $2 }' "$f"
	echo
done
