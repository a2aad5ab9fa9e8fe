#!/bin/sh
# fabplan sweep over 128 sizes on QM9700 (issue 10's target: under a minute on 2 cores).
# Usage: bench/sweep.sh [BUILD_DIR]   (default build). Prints the machine load before and after,
# wall and CPU time, and the sizes planned. Not run by ctest (timing depends on the machine).
set -e
B=${1:-build}/src/fabplan
OUT=$(mktemp -d)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
/usr/bin/time -f "wall %e s, user %U s, sys %S s, peak %M KB" \
    "$B" sweep --gpus 1024..131072:1024 --topology clos --switch nvidia-qm9700 -o "$OUT"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
wc -l "$OUT/sweep.csv"
rm -rf "$OUT"
