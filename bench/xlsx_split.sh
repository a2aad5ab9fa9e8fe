#!/bin/sh
# Full-size check that plan.xlsx continues a sheet past Excel's 1,048,576 rows (header + 1,048,575
# data rows) instead of truncating it, with time and peak memory. Too slow for the test suite,
# which checks the same logic with the limit lowered (tests/write_xlsx).
#
#   bench/xlsx_split.sh [BUILD_DIR] [OUT_DIR]
#
# Plan: 262,144 GPUs on a 4-tier Clos of 64-port switches: 2 x 14,336 = 28,672 switches x 64
# ports = 1,835,008 switch ports, so the Ports sheet must continue on "Ports (2)" with
# 1,835,008 - 1,048,575 = 786,433 rows; and 262,144 x 4 = 1,048,576 links, one more cable than a
# sheet holds, so "Cables (2)" must carry exactly one row (when cabling is built in).
set -eu
BUILD=${1:-build}
OUT=${2:-/tmp/fabplan-bench-xlsx}
rm -rf "$OUT"
/usr/bin/time -v "$BUILD/src/fabplan" plan -q --gpus 262144 --tiers 4 --topology clos \
    -o "$OUT" 2> "$OUT.time" || { cat "$OUT.time"; exit 1; }
grep -E "Elapsed|Maximum resident" "$OUT.time"
X="$OUT/plan.xlsx"
ls -l "$X"
names=$(unzip -p "$X" xl/workbook.xml | grep -o '<sheet name="[^"]*"' | sed 's/<sheet name="//;s/"//')
echo "sheets:"; echo "$names" | sed 's/^/  /'
fail=0
i=0
echo "$names" | while read -r name; do
    i=$((i + 1))
    rows=$(unzip -p "$X" "xl/worksheets/sheet$i.xml" | grep -o '<row r="' | wc -l)
    echo "  $name: $rows rows (header included)"
    if [ "$rows" -gt 1048576 ]; then echo "FAIL: $name has more rows than Excel allows"; exit 1; fi
done || fail=1
echo "$names" | grep -qx "Ports (2)" || { echo "FAIL: no Ports (2)"; fail=1; }
exit $fail
