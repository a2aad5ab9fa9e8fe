#!/bin/sh
# Each output written alone (`--formats NAME`, which builds only the plan stages that output
# reads) must be byte-identical to the same file of a run that writes everything:
#   scripts/check-formats-alone.sh BIN [PLAN-ARGS...]
# e.g. scripts/check-formats-alone.sh build/src/fabplan --preset dgx-h100-1su
# Without PLAN-ARGS: every preset and every spec in examples/specs/ but the 100k-GPU one.
# Exits 1 naming every file that differs or is missing. xlsx and png are left out (xlsx reads
# every stage, so it is built as in the full run; png renders the same diagrams); report.html
# inlines the diagrams of its run, so it is written with them.
set -eu
bin=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fabplan-formats.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0

check() {       # check LABEL PLAN-ARGS...
    label=$1; shift
    rm -rf "$tmp/full" "$tmp/one"
    "$bin" plan "$@" --no-xlsx -q -o "$tmp/full"
    for f in json links cables bom labels netbox topology avd report,diagrams fabric figure floor detail; do
        rm -rf "$tmp/one"
        "$bin" plan "$@" --formats "$f" -q -o "$tmp/one"
        for file in "$tmp"/one/*; do
            [ -e "$file" ] || continue
            name=$(basename "$file")
            if ! cmp -s "$file" "$tmp/full/$name"; then
                echo "check-formats-alone: $label: $name written by --formats $f differs from the full run's" >&2
                bad=1
            fi
        done
    done
}

if [ $# -gt 0 ]; then
    check "$*" "$@"
else
    for p in $("$bin" presets | awk '/^[^ ]/ { print $1 }'); do
        check "preset $p" --preset "$p"
    done
    for s in "$root"/examples/specs/*.json; do
        case $s in *100k*) continue ;; esac
        check "$(basename "$s")" "$s"
    done
fi
exit $bad
