#!/bin/sh
# bench/verify.sh - fabplan verify at 131,072 GPUs (4 tiers, 524,288 links) against a discovery
# of the same size with a few hundred faults: the median of N runs (wall, user, peak RSS) beside
# its target (issue 25: under 3 s on 2 cores) and its floors.
#
#   bench/verify.sh [--runs N] [--gpus G] [BUILD_DIR]
#
# The plan's own ibnetdiscover.topo (plan --formats cables,links,ibnetdiscover) is the
# discovery, with faults put in by renaming HCAs (the node descriptions verify matches by):
# every 1000th HCA record (0, 1000, ...) trades its description with the next one (two planned
# links swapped), every 1000th from 500 is renamed "lab-host-<k> mlx5_0" (unknown-device). The
# counts verify reports are checked against the faults put in before anything is timed.
# Floors: reading the three inputs (cat to /dev/null) and writing verify.csv's rows back with
# plain stdio (bench_floor csv: fputs per row, fsync). BUILD_DIR (default build-release) must
# hold src/fabplan and bench/bench_floor; it is configured and built as Release when missing.
# Wall times mean something only on an idle machine: the load average is printed.
set -eu
runs=5
gpus=131072
build=
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift ;;
    --gpus) gpus=$2; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench/verify.sh: unknown option $1" >&2; exit 2 ;;
    *) build=$1 ;;
    esac
    shift
done
root=$(cd "$(dirname "$0")/.." && pwd)
build=${build:-$root/build-release}
if [ ! -x "$build/src/fabplan" ] || [ ! -x "$build/bench/bench_floor" ]; then
    echo "bench/verify.sh: building a Release tree in $build" >&2
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$build" -j2 --target fabplan_cli bench_floor >/dev/null
fi
bin=$build/src/fabplan
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fabplan-bench-verify.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

"$bin" plan --gpus "$gpus" --tiers 4 --formats cables,links,ibnetdiscover -q -o "$tmp/plan"
awk -v sw="$tmp/swaps" '
    /^Ca\t/ { n = k++ }
    { line[NR] = $0 }
    /^Ca\t/ && (n % 1000 == 0 || n % 1000 == 1) { ca[n] = NR }
    /^Ca\t/ && n % 1000 == 500 { sub(/# ".*"$/, "# \"lab-host-" n " mlx5_0\"", line[NR]); unk++ }
    END {
        for (c in ca) if (c % 1000 == 0 && ((c + 1) in ca)) {
            a = ca[c]; b = ca[c + 1]
            da = line[a]; sub(/.*# /, "", da); db = line[b]; sub(/.*# /, "", db)
            sub(/# ".*"$/, "# " db, line[a]); sub(/# ".*"$/, "# " da, line[b]); pairs++
        }
        for (i = 1; i <= NR; i++) print line[i]
        print pairs " " unk > sw
    }' "$tmp/plan/ibnetdiscover.topo" > "$tmp/faults.topo"
read -r pairs unknown < "$tmp/swaps"

run() { "$bin" verify "$tmp/plan" --ibnetdiscover "$tmp/faults.topo" -q -o "$tmp/v"; }
set +e
run
rc=$?
set -e
[ "$rc" = 1 ] || { echo "bench/verify.sh: verify exited $rc, expected 1 (differences)" >&2; exit 1; }
got_sw=$(sed -n 's/^[[:space:]]*"swapped":[[:space:]]*\([0-9]*\),*$/\1/p' "$tmp/v/verify-summary.json" | head -n 1)
got_unk=$(sed -n 's/^[[:space:]]*"unknown-device":[[:space:]]*\([0-9]*\),*$/\1/p' "$tmp/v/verify-summary.json" | head -n 1)
rows=$(($(wc -l < "$tmp/v/verify.csv") - 1))
if [ "$got_sw" != $((2 * pairs)) ] || [ "$got_unk" != "$unknown" ]; then
    echo "bench/verify.sh: swapped $got_sw (expected $((2 * pairs))), unknown-device $got_unk" \
         "(expected $unknown)" >&2
    exit 1
fi

echo "fabplan $("$bin" --version | awk '{ print $NF }') ($build), $(nproc) cores, $runs runs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$gpus GPUs: $rows rows; faults: $pairs swapped pairs, $unknown unknown HCAs (found: $got_sw swapped, $got_unk unknown-device)"
echo
echo "| case | target | wall s (median) | user s (median) | peak MiB |"
echo "|---|---|---|---|---|"
: > "$tmp/times"
i=0
while [ "$i" -lt "$runs" ]; do
    rm -rf "$tmp/v"
    /usr/bin/time -f "%e %U %M" -o "$tmp/t" "$bin" verify "$tmp/plan" --ibnetdiscover \
        "$tmp/faults.topo" -q -o "$tmp/v" || true
    tail -n 1 "$tmp/t" >> "$tmp/times"
    i=$((i + 1))
done
printf '| %-52s | %-6s | %8s | %8s | %8.0f |\n' "verify --ibnetdiscover ($gpus GPUs, 4 tiers)" "< 3 s" \
    "$(awk '{ print $1 }' "$tmp/times" | median)" "$(awk '{ print $2 }' "$tmp/times" | median)" \
    "$(awk '{ print $3 }' "$tmp/times" | sort -n | tail -n 1 | awk '{ print $1 / 1024 }')"
: > "$tmp/times"
i=0
while [ "$i" -lt "$runs" ]; do
    /usr/bin/time -f "%e" -o "$tmp/t" cat "$tmp/plan/cables.csv" "$tmp/plan/ib-ports.csv" \
        "$tmp/plan/links.csv" "$tmp/faults.topo" > /dev/null
    tail -n 1 "$tmp/t" >> "$tmp/times"
    i=$((i + 1))
done
printf '| %-52s | %-6s | %8s | %8s | %8s |\n' "floor: read the inputs ($(cat "$tmp/plan/cables.csv" \
    "$tmp/plan/ib-ports.csv" "$tmp/plan/links.csv" "$tmp/faults.topo" | wc -c) bytes)" floor \
    "$(median < "$tmp/times")" - -
: > "$tmp/times"
i=0
while [ "$i" -lt "$runs" ]; do
    rm -rf "$tmp/floor"
    mkdir -p "$tmp/floor"
    "$build/bench/bench_floor" csv "$tmp/floor" "$tmp/v/verify.csv" > "$tmp/f"
    awk '{ print $1 }' "$tmp/f" >> "$tmp/times"
    i=$((i + 1))
done
printf '| %-52s | %-6s | %8s | %8s | %8s |\n' "floor: verify.csv's rows, fputs + fsync ($(cut -d' ' -f3- "$tmp/f"))" \
    floor "$(median < "$tmp/times")" - -
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
