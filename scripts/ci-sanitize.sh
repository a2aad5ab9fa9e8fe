#!/bin/sh
# CI mode with sanitizers (not part of .ci/run, which stays the README's test command):
#  1. build with clang (gcc when clang is missing) and -fsanitize=address,undefined,
#     float-cast-overflow (FABPLAN_SANITIZE) in build-sanitize/, run the whole ctest suite,
#     which includes the replay of every fuzz corpus (fuzz_replay_*);
#  2. unless --no-valgrind: valgrind memcheck over every test binary of the normal build
#     (build/), failing on invalid reads/writes, uninitialised values and definite leaks in
#     fabplan's own code (tests/valgrind.supp names the leaks of our dependencies).
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
echo "== valgrind over the suite (build/)" >&2
cmake -S . -B build >/dev/null
nice cmake --build build -j2
status=0
for t in build/tests/test_* build/tests/fuzz_replay_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    case "$name" in
    fuzz_replay_*) args="tests/fuzz/corpus/${name#fuzz_replay_}" ;;
    # Criterion forks a worker per test; --jobs 1 keeps them in sequence under valgrind.
    *) args="--jobs 1" ;;
    esac
    log="build/valgrind-$name.log"
    # shellcheck disable=SC2086
    if ! nice valgrind --quiet --trace-children=yes --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        --suppressions=tests/valgrind.supp --log-file="$log" "$t" $args >/dev/null 2>&1; then
        echo "valgrind: $name: errors (see $log)" >&2
        status=1
    else
        echo "valgrind: $name: clean" >&2
    fi
done
exit $status
