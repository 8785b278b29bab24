#!/bin/sh
# testbed-probe.sh: while a netns testbed run is going (pslab testbed run
# -network netns), sample every INTERVAL seconds the queues the emulated
# network builds and what TCP sees of them:
#   - the tbf backlog (bytes) of the PS host's eth0 (its sending side: the
#     pulls) and of every switch port p<h> (the sending side towards host h:
#     p0 carries the pushes into the PS);
#   - the smoothed RTT (ms), cwnd (segments) and unacked segments of every
#     TCP socket of the PS host (one per worker connection).
# Output, CSV on stdout: t_s,kind,where,value1,value2,value3 with kind
# "backlog" (value1 bytes queued, as tc prints them, e.g. 53Kb; value2
# packets queued; value3 bytes sent since the qdisc was made, whose rate
# over the samples is the link's utilization) or "tcp" (value1 srtt ms,
# value2 cwnd, value3 unacked). Three processes per sample: use an interval of
# 0.1 s or more, and expect the run to record them as other work.
#
# usage: scripts/testbed-probe.sh [INTERVAL] > probe.csv   (stops when the run's namespaces go)
set -eu
interval=${1:-0.2}
echo "t_s,kind,where,value1,value2,value3"
# wait for a run's namespaces
while :; do
	sw=$(ip netns list | awk '/^pslab-[0-9]+-sw/ {print $1; exit}')
	[ -n "$sw" ] && break
	sleep 0.2
done
tag=${sw%-sw}
ps="$tag-h0"
start=$(date +%s.%N)
while ip netns list | grep -q "^$sw"; do
	t=$(echo "$(date +%s.%N) - $start" | bc)
	{
		tc -n "$ps" -s qdisc show dev eth0 2>/dev/null | awk -v t="$t" '/Sent/ {sent=$2} /backlog/ {sub("b","",$2); sub("p","",$3); print t ",backlog,h0-eth0," $2 "," $3 "," sent}'
		tc -n "$sw" -s qdisc show 2>/dev/null | awk -v t="$t" '/^qdisc/ {dev=$5} /Sent/ {sent=$2} /backlog/ {sub("b","",$2); sub("p","",$3); print t ",backlog,sw-" dev "," $2 "," $3 "," sent}'
		ip netns exec "$ps" ss -tinH state established 2>/dev/null | awk -v t="$t" '
			/^[0-9]/ || /:[0-9]+ +[0-9.]+:[0-9]+/ {peer=$NF; next}
			{rtt=""; cwnd=""; unacked="0"
			 for (i = 1; i <= NF; i++) {
				if ($i ~ /^rtt:/) {split(substr($i, 5), a, "/"); rtt=a[1]}
				if ($i ~ /^cwnd:/) cwnd=substr($i, 6)
				if ($i ~ /^unacked:/) unacked=substr($i, 9)
			 }
			 if (rtt != "") print t ",tcp," peer "," rtt "," cwnd "," unacked}'
	} || true
	sleep "$interval"
done
