#!/bin/sh
# The library's naming convention (docs/architecture.md, Names), checked on what it exports:
# every global symbol of the static library starts with fp_; one with a single underscore
# after fp (fp_name, not fp__name or fp_xlsx__name) is a public function, declared in a
# header under include/. A shared helper left without its fp__ prefix, or a public-looking
# name no header declares, fails with its name.
# usage: tests/symbol_names.sh LIBFABPLAN_A INCLUDE_DIR
set -eu
lib=$1; inc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -g --defined-only "$lib" | awk 'NF == 3 && $2 ~ /^[TDBRC]$/ { print $3 }' | sort -u > "$tmp/syms"
[ -s "$tmp/syms" ] || { echo "symbol_names: no symbols read from $lib"; exit 1; }
status=0
if grep -v '^fp_' "$tmp/syms" > "$tmp/bad"; then
    sed 's/^/symbol_names: exported without the fp_ prefix: /' "$tmp/bad"
    status=1
fi
grep -rhoE '\bfp_[a-z0-9_]+\(' "$inc" | tr -d '(' | sort -u > "$tmp/api"
grep '^fp_[a-z0-9]' "$tmp/syms" | grep -v '^fp_xlsx__' > "$tmp/public" || true
if comm -23 "$tmp/public" "$tmp/api" | grep . > "$tmp/undeclared"; then
    sed 's/^/symbol_names: fp_ name no public header declares (make it fp__ or declare it): /' \
        "$tmp/undeclared"
    status=1
fi
[ $status -eq 0 ] && echo "symbol_names: $(wc -l < "$tmp/syms") symbols follow the convention"
exit $status
