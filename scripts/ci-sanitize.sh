#!/bin/sh
# CI mode with sanitizers (not part of .ci/run, which stays the README's test command):
#  1. build with clang (gcc when clang is missing) and -fsanitize=address,undefined,
#     float-cast-overflow (FABPLAN_SANITIZE) in build-sanitize/, run the whole ctest suite,
#     which includes the replay of every fuzz corpus (fuzz_replay_*);
#  2. unless --no-valgrind: valgrind memcheck (normal build with the tests' timeouts x60, in
#     build-valgrind/) over every Criterion suite
#     (one job at a time, --trace-children so that each test's own process is checked; the
#     shell and the browser the CLI tests start run natively), the fuzz corpus replays, three
#     plans writing every output and a validate of every example spec, failing on invalid
#     reads/writes, uninitialised values and definite leaks (tests/valgrind.supp names what our
#     dependencies keep). VALGRIND_SUITES="cli text" limits the suites checked;
#     VALGRIND_FILTER='*/!(*sweep*)' passes Criterion a --filter (the fault and kill sweeps of
#     publish run every I/O point and take hours under valgrind; the sanitizer run has them).
# usage: scripts/ci-sanitize.sh [--no-valgrind | --valgrind-only]     (scripts/install-deps.sh --sanitize first)
set -eu
cd "$(dirname "$0")/.."
valgrind=1 sanitize=1
[ "${1:-}" = "--no-valgrind" ] && valgrind=0
[ "${1:-}" = "--valgrind-only" ] && sanitize=0
if [ $sanitize -eq 1 ]; then
    cc=gcc
    command -v clang >/dev/null 2>&1 && cc=clang
    echo "== sanitizer build ($cc) in build-sanitize/" >&2
    cmake -S . -B build-sanitize -DCMAKE_C_COMPILER=$cc -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DFABPLAN_SANITIZE=ON >/dev/null
    nice cmake --build build-sanitize -j2
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
        ctest --test-dir build-sanitize --output-on-failure
fi
[ $valgrind -eq 1 ] || exit 0
echo "== valgrind (build-valgrind/)" >&2
# The normal build, with the tests' timeouts scaled for valgrind's slowdown.
cmake -S . -B build-valgrind -DFABPLAN_TEST_TIMEOUT_SCALE=60 >/dev/null
nice cmake --build build-valgrind -j2
B=$(pwd)/build-valgrind
SUPP=$(pwd)/tests/valgrind.supp   # absolute: traced children may run in other folders
status=0
vg() {
    log=$1
    shift
    if nice valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite --suppressions="$SUPP" --log-file="$log" "$@" \
        >/dev/null 2>&1 || [ $? -ne 99 ]; then
        echo "valgrind: clean: $*" >&2
    else
        echo "valgrind: ERRORS: $* (see $log)" >&2
        status=1
    fi
}
# Criterion (BoxFort) runs each test in a child process: --trace-children follows it; the
# tests' timeouts are scaled (FABPLAN_TEST_TIMEOUT_SCALE); the log path is absolute because
# some suites run each test in a folder of its own.
# A suite passes when it exits 0 (every test passed under valgrind) and no process of it wrote
# to its log (--quiet: only errors and definite leaks are written).
suites=${VALGRIND_SUITES:-$(cd "$B/tests" && ls test_* | sed 's/^test_//')}
for s in $suites; do
    rm -f "$B"/valgrind-suite-$s-*.log
    if nice valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite --suppressions="$SUPP" --trace-children=yes \
        --trace-children-skip='/bin/sh,/usr/bin/sh,/bin/bash,*/chromium*,*/soffice*,*/dot' \
        --log-file="$B/valgrind-suite-$s-%p.log" "$B/tests/test_$s" --jobs 1 \
        ${VALGRIND_FILTER:+--filter "$VALGRIND_FILTER"} \
        >"$B/valgrind-suite-$s.out" 2>&1 &&
        [ -z "$(cat "$B"/valgrind-suite-$s-*.log 2>/dev/null)" ]; then
        echo "valgrind: clean: suite $s" >&2
        rm -f "$B"/valgrind-suite-$s-*.log
    else
        echo "valgrind: ERRORS or failures: suite $s (see $B/valgrind-suite-$s.out and -PID.log)" >&2
        status=1
    fi
done
for h in spec catalog overrides writers fail verify; do
    vg "$B/valgrind-replay-$h.log" "$B/tests/fuzz_replay_$h" "tests/fuzz/corpus/$h"
done
out=$(mktemp -d)
vg "$B/valgrind-plan-rail.log" "$B/src/fabplan" plan --gpus 512 -q --split-by row --formats all -o "$out/a"
vg "$B/valgrind-plan-clos.log" "$B/src/fabplan" plan --gpus 2048 --topology clos --tiers 3 -q -o "$out/b"
vg "$B/valgrind-plan-halls.log" "$B/src/fabplan" plan --gpus 1024 --set /layout/halls=2 -q --split-by hall -o "$out/c"
for spec in examples/specs/*.json; do
    vg "$B/valgrind-validate-$(basename "$spec" .json).log" "$B/src/fabplan" validate "$spec"
done
rm -rf "$out"
exit $status
