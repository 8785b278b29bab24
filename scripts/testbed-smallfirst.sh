#!/bin/sh
# testbed-smallfirst.sh: a diagnostic for datasets/testbed/README.md ("Why
# AlexNet's throughput falls"). While netns testbed runs go, it replaces
# every emulated NIC's tbf with an HTB shaper of the same 100 Mbit/s whose
# class for IPv4 TCP packets shorter than MAX bytes (a power of two; 128:
# pure ACKs and WINDOW_UPDATEs, 512: also Pull requests and push replies)
# is served first. It reorders segments of one connection when a message's
# last segment is short, so runs under it may retransmit (their accounting
# says how much): a probe, not a testbed setting. Stop it with Ctrl-C.
#
# usage: scripts/testbed-smallfirst.sh [MAX] &  then: pslab testbed run ...
set -eu
max=${1:-512}
mask=$(printf '0x%04x' $(( 0xffff & ~(max - 1) )))
while :; do
	for ns in $(ip netns list | awk '/^pslab-[0-9]+-/ {print $1}'); do
		tc -n "$ns" qdisc show 2>/dev/null | awk '$2 == "tbf" && $6 == "root" {print $5}' | while read -r dev; do
			tc -n "$ns" qdisc replace dev "$dev" root handle 1: htb default 20 r2q 100 &&
				tc -n "$ns" class add dev "$dev" parent 1: classid 1:1 htb rate 100mbit burst 18030 cburst 18030 &&
				tc -n "$ns" class add dev "$dev" parent 1:1 classid 1:10 htb rate 10mbit ceil 100mbit burst 18030 cburst 18030 prio 0 &&
				tc -n "$ns" class add dev "$dev" parent 1:1 classid 1:20 htb rate 90mbit ceil 100mbit burst 18030 cburst 18030 prio 1 &&
				tc -n "$ns" qdisc add dev "$dev" parent 1:10 bfifo limit 1048576 &&
				tc -n "$ns" qdisc add dev "$dev" parent 1:20 bfifo limit 16777216 &&
				tc -n "$ns" filter add dev "$dev" parent 1: protocol ip prio 1 u32 \
					match ip protocol 6 0xff match u16 0x0000 "$mask" at 2 flowid 1:10 &&
				echo "$(date +%T) $ns $dev: packets < $max B first"
		done
	done
	sleep 0.5
done
