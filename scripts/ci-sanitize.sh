#!/bin/sh
# CI mode with sanitizers (not part of .ci/run, which stays the README's test command):
#  1. build with clang (gcc when clang is missing) and -fsanitize=address,undefined,
#     float-cast-overflow (FABPLAN_SANITIZE) in build-sanitize/, run the whole ctest suite,
#     which includes the replay of every fuzz corpus (fuzz_replay_*);
#  2. unless --no-valgrind: valgrind memcheck (normal build, build/) over the fuzz corpus
#     replays, three plans writing every output and a validate of every example spec, failing
#     on invalid reads/writes, uninitialised values and definite leaks (tests/valgrind.supp
#     names what our dependencies keep). Criterion's runner aborts under valgrind, so the
#     Criterion suites themselves are checked by the sanitizers in step 1.
# usage: scripts/ci-sanitize.sh [--no-valgrind]     (scripts/install-deps.sh --sanitize first)
set -eu
cd "$(dirname "$0")/.."
valgrind=1
[ "${1:-}" = "--no-valgrind" ] && valgrind=0
cc=gcc
command -v clang >/dev/null 2>&1 && cc=clang
echo "== sanitizer build ($cc) in build-sanitize/" >&2
cmake -S . -B build-sanitize -DCMAKE_C_COMPILER=$cc -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFABPLAN_SANITIZE=ON >/dev/null
nice cmake --build build-sanitize -j2
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
    ctest --test-dir build-sanitize --output-on-failure
[ $valgrind -eq 1 ] || exit 0
echo "== valgrind (build/)" >&2
# Criterion's runner (BoxFort) aborts under valgrind, so the Criterion suites run under the
# sanitizers above; valgrind runs fabplan's code through the corpus replays and the CLI.
cmake -S . -B build >/dev/null
nice cmake --build build -j2
status=0
vg() {
    log=$1
    shift
    if nice valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite --suppressions=tests/valgrind.supp --log-file="$log" "$@" \
        >/dev/null 2>&1 || [ $? -ne 99 ]; then
        echo "valgrind: clean: $*" >&2
    else
        echo "valgrind: ERRORS: $* (see $log)" >&2
        status=1
    fi
}
for h in spec catalog overrides writers; do
    vg "build/valgrind-replay-$h.log" "build/tests/fuzz_replay_$h" "tests/fuzz/corpus/$h"
done
out=$(mktemp -d)
vg build/valgrind-plan-rail.log build/src/fabplan plan --gpus 512 -q --split-by row --formats all -o "$out/a"
vg build/valgrind-plan-clos.log build/src/fabplan plan --gpus 2048 --topology clos --tiers 3 -q -o "$out/b"
vg build/valgrind-plan-halls.log build/src/fabplan plan --gpus 1024 --set /layout/halls=2 -q --split-by hall -o "$out/c"
for spec in examples/specs/*.json; do
    vg "build/valgrind-validate-$(basename "$spec" .json).log" build/src/fabplan validate "$spec"
done
rm -rf "$out"
exit $status
