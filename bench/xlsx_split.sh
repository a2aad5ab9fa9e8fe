#!/bin/sh
# Full-size check that plan.xlsx continues a sheet past Excel's 1,048,576 rows (header + 1,048,575
# data rows) instead of truncating it, with time and peak memory. Too slow for the test suite,
# which checks the same logic with the limit lowered (tests/write_xlsx).
#
#   bench/xlsx_split.sh [BUILD_DIR] [OUT_DIR]
#
# Plan: 262,144 GPUs with a dual-port NIC on 2 planes, each plane a 4-tier Clos of 64-port
# switches at 1:1 for 262,144 NIC ports:
#   links         = 2 planes x 262,144 NIC ports x 4 boundaries (NIC-leaf .. core-super-core)
#                 = 2,097,152; every link is its own cable (cables.csv of a run: no splitter
#                   cables in this plan), so 2,097,152 cables = 2 x (1,048,575 + 1):
#   Cables sheets = "Cables" and "Cables (2)" full, "Cables (3)" with 2 rows (3 with its header)
#   switch ports  = 57,344 switches x 64 = 3,670,016: "Ports" .. "Ports (4)", the last with
#                   3,670,016 - 3 x 1,048,575 = 524,291 rows (524,292 with its header)
# (The 1-plane plan of the same size has only 952,928 cables: splitter cables carry two
# server links each, and it never reaches the limit.)
# The script checks the split against cables.csv itself (whatever the exact count), so it stays
# right if the media choice changes.
set -eu
BUILD=${1:-build}
OUT=${2:-/tmp/fabplan-bench-xlsx}
LIMIT=1048575
rm -rf "$OUT"
/usr/bin/time -v "$BUILD/src/fabplan" plan -q --gpus 262144 --tiers 4 --topology clos \
    --planes 2 --nic generic-nic-2x400 -o "$OUT" 2> "$OUT.time" || { cat "$OUT.time"; exit 1; }
grep -E "Elapsed|Maximum resident" "$OUT.time"
X="$OUT/plan.xlsx"
ls -l "$X"
cables=$(($(wc -l < "$OUT/cables.csv") - 1))
echo "cables.csv: $cables cables"
# Rows of a sheet, streamed: the sheet XML is one line of a gigabyte, too long for grep -o.
rows_of() { unzip -p "$X" "xl/worksheets/sheet$1.xml" | tr '<' '\n' | grep -c '^row '; }
names=$(unzip -p "$X" xl/workbook.xml | tr '<' '\n' | grep '^sheet ' | sed 's/.* name="//;s/".*//')
fail=0
i=0
sheet_rows=0
for name in $(echo "$names" | tr ' ' '_'); do
    i=$((i + 1))
    name=$(echo "$name" | tr '_' ' ')
    case "$name" in Summary|BOM) echo "  $name"; continue ;; esac
    rows=$(rows_of $i)
    echo "  $name: $rows rows (header included)"
    if [ "$rows" -gt $((LIMIT + 1)) ]; then echo "FAIL: $name has more rows than Excel allows"; fail=1; fi
    case "$name" in Cables*) sheet_rows=$((sheet_rows + rows - 1)); last_cables=$rows ;; esac
done
want_last=$((cables % LIMIT + 1))
[ "$sheet_rows" -eq "$cables" ] || { echo "FAIL: Cables sheets hold $sheet_rows rows, cables.csv $cables"; fail=1; }
[ "${last_cables:-0}" -eq "$want_last" ] || { echo "FAIL: last Cables sheet has ${last_cables:-0} rows, want $want_last"; fail=1; }
echo "$names" | grep -qx "Cables (2)" || { echo "FAIL: no Cables (2)"; fail=1; }
[ $fail -eq 0 ] && echo "OK: $cables cables on $(echo "$names" | grep -c '^Cables') sheets, the last with $want_last rows"
exit $fail
