#!/bin/sh
# docs/spec.md names every key `fabplan validate --print-spec` prints (the spec resolved, every
# default filled in) for each built-in preset and each spec of examples/specs: the README sends
# a user to spec.md for "every key, default and range".
# usage: spec_keys_doc_test.sh SPEC_MD EXAMPLES_DIR FABPLAN_BINARY
set -eu
doc=$1; examples=$2; bin=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for p in $("$bin" presets | grep -oE '^[a-z0-9][a-z0-9-]*'); do
    "$bin" validate --print-spec --preset "$p" >>"$dir/specs" 2>/dev/null
done
for s in "$examples"/*.json; do
    "$bin" validate --print-spec "$s" >>"$dir/specs" 2>/dev/null
done
fail=0
for k in $(grep -oE '"[a-z][a-z0-9_-]*":' "$dir/specs" | tr -d '":' | sort -u); do
    grep -q "\"$k\"" "$doc" || { echo "docs/spec.md: no \"$k\", a key --print-spec prints" >&2; fail=1; }
done
exit $fail
