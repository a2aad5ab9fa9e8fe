#!/bin/sh
# Write every output of every built-in preset and every spec in examples/specs/ into OUTDIR,
# one folder each, so that two builds can be compared byte for byte:
#   scripts/snapshot-outputs.sh build-a/src/fabplan /tmp/a
#   scripts/snapshot-outputs.sh build-b/src/fabplan /tmp/b && diff -r /tmp/a /tmp/b
# Extra arguments after OUTDIR are passed to every `fabplan plan` (e.g. --no-xlsx).
set -eu
bin=$1; out=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
for p in $("$bin" presets | awk '/^[^ ]/ { print $1 }'); do
    "$bin" plan --preset "$p" -o "$out/preset-$p" -q "$@" || echo "snapshot: preset $p exited $?" >&2
done
for s in "$root"/examples/specs/*.json; do
    n=$(basename "$s" .json)
    "$bin" plan "$s" -o "$out/spec-$n" -q "$@" || echo "snapshot: spec $n exited $?" >&2
done
