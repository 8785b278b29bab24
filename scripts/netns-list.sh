#!/bin/sh
# List the testbed's network namespaces (names starting with "pslab-"), the
# processes in each, and their addresses and tc qdiscs.
set -eu
for ns in $(ip netns list | awk '{print $1}' | grep '^pslab-' || true); do
	echo "== $ns pids: $(ip netns pids "$ns" | tr '\n' ' ')"
	ip -n "$ns" -br addr
	tc -n "$ns" qdisc show | grep -v 'noqueue\|^$' || true
done
