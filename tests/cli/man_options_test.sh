#!/bin/sh
# The manual page against the binary: every command the binary has is in the page's synopsis,
# every option any command takes is in the page, and every option the page names is one a
# command takes (so neither side drifts when an option is added, renamed or dropped).
# usage: man_options_test.sh MANPAGE FABPLAN_BINARY
set -eu
man=$1; bin=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# the page's text with roff's \- as -, and \f font changes dropped
sed -e 's/\\-/-/g' -e 's/\\f[RBIP]//g' "$man" >"$dir/page"
fail=0
: >"$dir/all"
for cmd in $("$bin" _options); do
    [ "$cmd" = help ] && continue
    grep -q "^\.B fabplan $cmd\$" "$dir/page" ||
        { echo "man page: no SYNOPSIS line for command $cmd" >&2; fail=1; }
    for opt in $("$bin" _options "$cmd"); do
        echo "$opt" >>"$dir/all"
        grep -qE -- "(^|[^a-z0-9-])$opt([^a-z0-9-]|\$)" "$dir/page" ||
            { echo "man page: option $opt of fabplan $cmd is not documented" >&2; fail=1; }
    done
done
# options the page names (long ones, and the short -o -j -q -h) that no command takes
for opt in $(grep -oE -- '(^|[ ([,"])--[a-z][a-z0-9-]*|(^|[ (,"])-[ojqh]([ ,)"]|$)' "$dir/page" |
             sed -e 's/^[^-]*//' -e 's/[^a-z0-9-]*$//' | sort -u); do
    grep -qx -- "$opt" "$dir/all" ||
        { echo "man page: names option $opt, which no command takes" >&2; fail=1; }
done
exit $fail
