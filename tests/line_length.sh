#!/bin/sh
# Fails on a line longer than 140 characters in a file under src/ or include/ (the style's
# column limit is 100; 140 is the hard bound a long format string or table row may reach).
# Characters, not bytes: UTF-8 continuation bytes are not counted.
# usage: tests/line_length.sh [ROOT]   (default: the folder above this script)
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
status=0
for f in $(find src include -type f | sort); do
    LC_ALL=C tr -d '\200-\277' < "$f" | LC_ALL=C awk -v f="$f" '
        length > 140 { printf "%s:%d: %d characters (at most 140)\n", f, NR, length; bad = 1 }
        END { exit bad }' || status=1
done
exit $status
