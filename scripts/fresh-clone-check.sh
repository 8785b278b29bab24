#!/usr/bin/env bash
# Clones the committed state of this repository into a temporary directory
# (with ../shared beside it, as CI has), then times `make figures` and
# `make test` there and checks that the regenerated figures equal the
# committed ones byte for byte. Uncommitted changes are not included.
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/main"
if [ -d "$repo/../shared" ]; then ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"; fi
cd "$work/main"
start=$(date +%s)
make figures >/dev/null
mid=$(date +%s)
make test
end=$(date +%s)
echo "make figures: $((mid - start)) s, make test: $((end - mid)) s"
if ! git diff --quiet -- figures; then
  echo "figures differ from the committed ones:"; git diff --stat -- figures; exit 1
fi
echo "figures are byte-identical to the committed ones"
