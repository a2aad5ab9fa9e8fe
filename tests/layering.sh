#!/bin/sh
# Layering check: reads the #include "..." lines of every file under src/ and fails when
#  - a stage includes a header of a later stage. The stages, in pipeline order:
#      util < spec < fabric < phys < analysis < plan (src/*.c, src/*.h) < write < verify;
#    cli sees only its own headers and the public API (include/),
#  - a file other than the plan files in src/ (plan.c, plan_read.c, plan_cables.c, ...)
#    includes plan_data.h (struct fp_plan),
#  - a header whose first line says it is "private to" part of a stage (clos_work.h,
#    cabling_work.h, layout_work.h, graph.h, writers.h, ...) is included from another folder,
#  - the include graph between src/ files has a cycle,
#  - a diagram writer (write/dot_*.c) reads a stage's struct (fp__plan_fabric, _rspec, ...)
#    instead of plan.h's read-back functions (fp__plan_shape, fp__plan_device, ...).
# Public headers ("fabplan.h", "fabplan/...") and system headers are not checked.
# usage: tests/layering.sh [SRC_DIR]   (default: src/ beside this script)
set -eu
src=${1:-$(cd "$(dirname "$0")/../src" && pwd)}
cd "$src"
status=0
find . -name '*.[ch]' | sed 's|^\./||' | sort | while read -r f; do
    # Each include as "file<TAB>included", resolved to a path under src/ when it is one.
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
        dir=$(dirname "$f")
        if [ -f "$dir/$inc" ] && [ "$dir" != "." ]; then
            printf '%s\t%s\n' "$f" "$dir/$inc"
        elif [ -f "$inc" ]; then
            printf '%s\t%s\n' "$f" "$inc"
        fi
    done
done | while IFS="$(printf '\t')" read -r f h; do
    # Third field: 1 when the included header is private to its own folder.
    priv=0
    case "$h" in *.h) head -1 "$h" | grep -q "private to" && priv=1 ;; esac
    printf '%s\t%s\t%s\n' "$f" "$h" "$priv"
done | awk -F '\t' '
function stage(p,   top) {
    top = p; sub(/\/.*/, "", top)
    if (p !~ /\//) return "plan"
    return top
}
function dir(p) {
    if (p !~ /\//) return "."
    sub(/\/[^\/]*$/, "", p)
    return p
}
function rank(s) {
    if (s == "util") return 0
    if (s == "spec") return 1
    if (s == "fabric") return 2
    if (s == "phys") return 3
    if (s == "analysis") return 4
    if (s == "plan") return 5
    if (s == "write") return 6
    if (s == "verify") return 7
    if (s == "cli") return 8
    return -1
}
function visit(v,   i, j, w, on, msg) {
    state[v] = 1
    stack[++depth] = v
    for (i = 1; i <= nout[v]; i++) {
        w = out[v, i]
        if (state[w] == 1) {
            msg = ""; on = 0
            for (j = 1; j <= depth; j++) {
                if (stack[j] == w) on = 1
                if (on) msg = msg stack[j] " -> "
            }
            printf "layering: include cycle: %s%s\n", msg, w
            bad = 1
        } else if (state[w] == 0) {
            visit(w)
        }
    }
    depth--
    state[v] = 2
}
{
    f = $1; h = $2
    sf = stage(f); sh = stage(h)
    if (rank(sf) < 0 || rank(sh) < 0) {
        printf "layering: %s includes %s: unknown stage folder (add it to tests/layering.sh)\n", f, h
        bad = 1
    } else if (sf == "cli" && sh != "cli") {
        printf "layering: %s includes %s: the CLI uses only the public API (include/fabplan/)\n", f, h
        bad = 1
    } else if (rank(sh) > rank(sf)) {
        printf "layering: %s (stage %s) includes %s of the later stage %s\n", f, sf, h, sh
        bad = 1
    }
    if ($3 == 1 && h != "plan_data.h" && dir(f) != dir(h)) {
        printf "layering: %s includes %s, which is private to %s/ (its first line says so)\n", f, h, dir(h)
        bad = 1
    }
    if (h == "plan_data.h" && f !~ /^plan[a-z_]*\.c$/) {
        printf "layering: %s includes plan_data.h: only the plan files in src/ (plan.c, plan_read.c, ...) see struct fp_plan; read it through plan.h\n", f
        bad = 1
    }
    if (!(f in seen)) { seen[f] = 1; nodes[++nn] = f }
    if (!(h in seen)) { seen[h] = 1; nodes[++nn] = h }
    out[f, ++nout[f]] = h
    edges++
}
END {
    for (k = 1; k <= nn; k++)
        if (state[nodes[k]] == 0)
            visit(nodes[k])
    if (bad) exit 1
    printf "layering: %d includes between %d files, stages in order, no cycles\n", edges, nn
}' || status=1
if grep -n -E 'fp__plan_(fabric|rspec|layout|cabling|names|bom|analysis)\(' write/dot_*.c; then
    echo "layering: the diagram writers above read a stage's struct; read the fabric through plan.h (fp__plan_shape, fp__plan_device, fp__plan_link, ...)"
    status=1
fi
exit $status
