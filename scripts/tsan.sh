#!/bin/sh
# ThreadSanitizer over the code that runs on several threads: the workbook's two threads
# (Cables and Segments beside Ports and the sheets after it; the Network cables sheet), the
# split books' pool, the metrics beside the layout, the documents' and the fsync threads,
# compare's workers and verify's discovery thread (beside the plan folder's reading). Builds the CLI in build-tsan/ (FABPLAN_TSAN, clang when present) and runs
# it on plans that take each of those paths; exit 0 when no race is reported (a report fails
# the run: halt_on_error). Criterion's test runner cannot start under TSan (its shared arena
# is mapped where TSan's shadow memory goes), so the CLI is what runs; libxlsxwriter, igraph
# and Graphviz are not instrumented, so a race inside them shows only through our calls.
# About 3 minutes on 2 cores from a cold build.
#   scripts/tsan.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-tsan}
cc=gcc
command -v clang >/dev/null 2>&1 && cc=clang
cmake -S . -B "$build" -DCMAKE_C_COMPILER=$cc -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFABPLAN_TSAN=ON \
    -DBUILD_TESTING=OFF >/dev/null
nice cmake --build "$build" -j2 --target fabplan_cli
bin=$build/src/fabplan
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(pwd)/tests/tsan.supp"
run() {
    echo "tsan: fabplan $*" >&2
    "$bin" "$@" -q >/dev/null
}
run plan --gpus 4096 -o "$out/a"
run plan --preset dgx-h100-4su-networks -o "$out/b"
run plan --gpus 1024 --set '/layout/cabling="structured"' --set '/media/default="MMF"' -o "$out/c"
run plan --gpus 2048 --split-by row -o "$out/d"
run plan --gpus 16384 --no-xlsx -o "$out/e"
run compare --gpus 4096 --jobs 2
run plan --preset dgx-h100-4su --formats cables,links,ibnetdiscover -o "$out/f"
run verify "$out/f" --ibnetdiscover "$out/f/ibnetdiscover.topo" -o "$out/g"
echo "tsan: no race reported"
