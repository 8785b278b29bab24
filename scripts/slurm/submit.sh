#!/bin/bash
# Submits a sharded pslab run or predict sweep to Slurm: a job array of N
# shards (shard.sbatch, -shard i/N) and a merge job that starts when all of
# them succeeded (merge.sbatch, --dependency=afterok).
#
#   scripts/slurm/submit.sh [-n N] [-d DIR] [-r ROOT] [-b PSLAB] -- run [-root .] [experiments...]
#   scripts/slurm/submit.sh -n 8 -- predict PROFILE -bandwidth 1Gbps,10Gbps -workers 1..64 -format csv -o sweep.csv
#
#   -n N      shards (default 4)
#   -d DIR    shard directory, on a file system every node shares (default: shards);
#             its old shard-*-of-* directories are removed first; logs go to DIR/logs
#   -r ROOT   pslab run: merge the figures under ROOT instead of the submit directory
#   -b PSLAB  the pslab binary (default: built once with go build into DIR/pslab,
#             so every task runs the same one)
#
# Run it from the repository root (the jobs run where they were submitted).
# More sbatch options go in the usual SBATCH_* variables (SBATCH_PARTITION,
# SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ...). Prints "array <id> merge <id>".
set -euo pipefail

n=4 dir=shards root= bin=
while getopts "n:d:r:b:h" o; do
	case $o in
	n) n=$OPTARG ;;
	d) dir=$OPTARG ;;
	r) root=$OPTARG ;;
	b) bin=$OPTARG ;;
	*) sed -n '2,20p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ "$#" -lt 1 ] || { [ "$1" != run ] && [ "$1" != predict ]; }; then
	echo "submit.sh: want -- run|predict [args...] after the options" >&2
	exit 2
fi
if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
	echo "submit.sh: -n $n: want a shard count ≥ 1" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/logs"
dir=$(cd "$dir" && pwd)
rm -rf "$dir"/shard-*-of-*
if [ -z "$bin" ]; then
	go build -o "$dir/pslab" ./cmd/pslab
	bin=$dir/pslab
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# A binary built in a Git worktree or with -buildvcs=false records no
# revision (golang/go#58218); merge then compares the one given here.
if ! go version -m "$bin" 2>/dev/null | grep -q vcs.revision && [ -z "${PSLAB_VCS_REVISION:-}" ] &&
	rev=$(git rev-parse HEAD 2>/dev/null); then
	git diff --quiet HEAD 2>/dev/null || rev=$rev-modified
	export PSLAB_VCS_REVISION=$rev
fi
export PSLAB=$bin PSLAB_SHARD_DIR=$dir

array=$(sbatch --parsable --export=ALL --array=0-$((n - 1)) \
	--output="$dir/logs/shard-%A_%a.out" "$here/shard.sbatch" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
	--output="$dir/logs/merge-%j.out" "$here/merge.sbatch" ${root:+-root "$root"})
merge=${merge%%;*}
echo "array $array merge $merge"
