#!/bin/sh
# Remove the network namespaces left by an interrupted `pslab testbed run`
# (names starting with "pslab-"): kill the processes still inside them, then
# delete them, which also removes their veth pairs, bridge and tc qdiscs.
# Touches nothing else. Needs root and iproute2.
set -eu
prefix=pslab-
found=0
for ns in $(ip netns list | awk '{print $1}' | grep "^$prefix" || true); do
	found=1
	for pid in $(ip netns pids "$ns" 2>/dev/null); do
		kill -9 "$pid" 2>/dev/null || true
	done
	ip netns del "$ns" && echo "removed $ns"
done
[ "$found" = 1 ] || echo "no $prefix* network namespaces"
