#!/usr/bin/env bash
# Regenerates datasets/samples/tf-timeline/, the small real inputs the
# README's TensorFlow-timeline example runs on (make sample-tf-timeline):
#
#   timeline.json.gz  a real 1-worker profiling run of pslab's testbed on
#                     loopback: `pslab testbed ps -tap` and `pslab testbed
#                     worker -trace -timeline` as two processes speaking
#                     gRPC over TCP on 127.0.0.1, each shaping its NIC with
#                     a userspace token bucket at 100 Mbit/s, with the job
#                     flags of the committed configuration alexnet-b256-mux
#                     (datasets/testbed/configs.toml); gzip -9n of the
#                     TensorFlow-style timeline the worker writes;
#   measured.csv      workers, throughput and its std over repetitions of
#                     that configuration's committed measurement,
#                     datasets/testbed/alexnet-b256-mux/throughput.arrow
#                     (pslab export -format csv, three columns kept);
#   README.md         provenance: command, commit, date, host.
#
# Needs Go (or PSLAB=path/to/pslab, a binary to use instead of building
# one) and nothing outside the repository (no root, no namespaces).
# The timeline changes from run to run (it is a measurement); measured.csv
# only when the committed dataset does.
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
cd "$repo"
config=alexnet-b256-mux
steps=20
out=datasets/samples/tf-timeline
job=(-profile datasets/zoo/alexnet.arrow -batch 256 -device-speed 3 -bytes-scale 0.00333333 -servers 1
	-sync asp -transport multiplexed -window 93333 -conn-window 93333 -shape-rate 12500000)

tmp=$(mktemp -d)
ps=
cleanup() {
	if [ -n "$ps" ]; then kill "$ps" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
if [ -n "${PSLAB:-}" ]; then
	cp "$PSLAB" "$tmp/pslab"
else
	go build -o "$tmp/pslab" ./cmd/pslab
fi

# The PS picks a free port and prints "listening 127.0.0.1:PORT".
"$tmp/pslab" testbed ps -listen 127.0.0.1:0 -index 0 -workers 1 -tap -timeout 5m "${job[@]}" >"$tmp/ps.out" &
ps=$!
addr=
for _ in $(seq 100); do
	addr=$(awk '/^listening / {print $2; exit}' "$tmp/ps.out")
	[ -n "$addr" ] && break
	sleep 0.1
done
[ -n "$addr" ] || { echo "sample-tf-timeline: the PS did not start" >&2; exit 1; }
"$tmp/pslab" testbed worker -id 0 -ps "$addr" -workers 1 -steps "$steps" -trace -timeline "$tmp/timeline.json" \
	-timeout 5m -out "$tmp/profile.json" "${job[@]}"
wait "$ps"
ps=

mkdir -p "$out"
gzip -9n <"$tmp/timeline.json" >"$out/timeline.json.gz"

# measured.csv: the columns after the quoted platform are fixed, so they
# are counted from the end of the line (the platform holds commas).
"$tmp/pslab" export -format csv "datasets/testbed/$config/throughput.arrow" -o "$tmp/throughput.csv" >/dev/null
want='model,batch[examples],workers,ps,sync,transport,order,throughput[examples/s],throughput_std[examples/s],steps,window[bytes]'
header=$(head -1 "$tmp/throughput.csv")
case "$header" in
*",$want") ;;
*)
	echo "sample-tf-timeline: unexpected columns in $config/throughput.arrow: $header" >&2
	exit 1
	;;
esac
awk -F, 'NR == 1 {print "workers,throughput[examples/s],throughput_std[examples/s]"; next}
	{print $(NF-8) "," $(NF-3) "," $(NF-2)}' "$tmp/throughput.csv" >"$out/measured.csv"

rev=$(git rev-parse HEAD)
dirty=
git diff --quiet HEAD -- cmd engine go.mod go.sum || dirty=" (with uncommitted changes to cmd/ or engine/)"
bytes=$(wc -c <"$out/timeline.json.gz")
cat >"$out/README.md" <<EOF
# A real TensorFlow-style timeline and measured throughputs (samples)

Small real inputs for the README's "From a TensorFlow timeline" example, so that it
runs from a fresh clone. Regenerate with \`make sample-tf-timeline\`
(\`scripts/sample-tf-timeline.sh\`, which documents each step).

| file | what | how |
|---|---|---|
| \`timeline.json.gz\` ($bytes bytes) | $steps profiling steps of one worker, TensorFlow Chrome-trace format (\`engine/timeline\`): a step marker per step, \`_Recv\` downlinks on the worker's lane and uplinks on the PS's lane with \`args.bytes\`, compute ops with their inputs; trace metadata (model, batch, bandwidth, WIN, fitted α/β) in \`otherData\` | measured: a PS (\`pslab testbed ps -tap\`) and a worker (\`pslab testbed worker -trace -timeline\`) as two processes training AlexNet for real over gRPC on 127.0.0.1, compute emulated from the PipeDream V100 profile \`datasets/zoo/alexnet.arrow\`, each process shaping its NIC with a token bucket at 100 Mbit/s (\`loopback-token-bucket\`), job flags of the testbed configuration \`$config\` |
| \`measured.csv\` | workers, throughput and its standard deviation over repetitions (examples/s), W = 1..7 | derived: three columns of \`datasets/testbed/$config/throughput.arrow\` (measured on the netns/HTB testbed; see \`datasets/testbed/README.md\` for its host limits), via \`pslab export -format csv\` |

The timeline is the same job as the measurement, on a different network emulation
(loopback token bucket here, namespaces with HTB there), so predictions from it are
compared with measurements of the same configuration.

- command: \`$(printf '%s ' "$tmp/pslab" testbed worker -id 0 -ps "$addr" -workers 1 -steps "$steps" -trace -timeline timeline.json -timeout 5m -out profile.json "${job[@]}" | sed "s|$tmp/||; s| \$||")\`, with the PS as \`pslab testbed ps -listen 127.0.0.1:0 -index 0 -workers 1 -tap -timeout 5m\` and the same job flags
- commit: $rev$dirty
- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
- host: $(uname -sr), $(nproc) CPUs ($(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || echo unknown)), $(go version | awk '{print $3}'), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
- licence: as the repository; the profile's own (MIT, PipeDream) for the layer times
EOF
echo "wrote $out/timeline.json.gz ($bytes bytes), $out/measured.csv, $out/README.md"
