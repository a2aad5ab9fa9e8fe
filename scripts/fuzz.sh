#!/bin/sh
# Fuzz fabplan with libFuzzer: builds the harnesses of tests/fuzz with clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and float-cast-overflow in build-fuzz/, then runs each for SECONDS
# under nice -n 19, one at a time (the machine is shared).
#
#   scripts/fuzz.sh [HARNESS|all] [SECONDS]      HARNESS: spec, catalog, overrides, writers, fail, verify
#
# New inputs that reach new code go to build-fuzz/corpus/HARNESS (the seeds in
# tests/fuzz/corpus/HARNESS are read, never changed); a crash is saved as
# build-fuzz/artifacts/HARNESS/crash-*. Fix it, then copy the input into tests/fuzz/corpus/HARNESS
# under a name that says what it was: the normal test suite replays every corpus file
# (fuzz_replay_* in ctest), so it stays a regression test. Needs clang and libclang-rt-14-dev
# (scripts/install-deps.sh --fuzz installs them).
set -eu
cd "$(dirname "$0")/.."
which=${1:-all}
secs=${2:-60}
case "$which" in
all) harnesses="spec catalog overrides writers fail verify" ;;
spec | catalog | overrides | writers | fail | verify) harnesses=$which ;;
*) echo "usage: scripts/fuzz.sh [spec|catalog|overrides|writers|fail|verify|all] [SECONDS]" >&2; exit 2 ;;
esac
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFABPLAN_FUZZ=ON -DBUILD_TESTING=ON >/dev/null
targets=""
for h in $harnesses; do targets="$targets fuzz_$h"; done
# shellcheck disable=SC2086
nice -n 19 cmake --build build-fuzz -j2 --target $targets
status=0
for h in $harnesses; do
    mkdir -p "build-fuzz/corpus/$h" "build-fuzz/artifacts/$h"
    echo "== fuzz_$h for $secs s" >&2
    ASAN_OPTIONS=detect_leaks=1 \
    LSAN_OPTIONS="suppressions=$PWD/tests/lsan-graphviz.supp" \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice -n 19 "build-fuzz/tests/fuzz_$h" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2560 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$h/" \
        "build-fuzz/corpus/$h" "tests/fuzz/corpus/$h" || status=1
done
exit $status
