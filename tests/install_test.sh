#!/bin/sh
# Install into a scratch prefix, then build and run the embedding example against the
# installed headers and library through pkg-config, as a user of the library would.
set -eu
build=$1; src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
pcdir=$(dirname "$(find "$prefix" -name fabplan.pc)")
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs fabplan)
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror "$src/examples/embed/main.c" $flags -o "$prefix/embed"
LD_LIBRARY_PATH=$(dirname "$(find "$prefix" -name 'libfabplan.so' | head -1)") "$prefix/embed" | grep -q '^tiers 3$'
# `man fabplan` finds the installed page (MANPATH as a user with this prefix would set it).
MANPATH=$prefix/share/man MANWIDTH=80 man fabplan 2>/dev/null | grep -q 'plan the network fabric of a GPU cluster'
# The installed completion completes commands and a command's options from the installed binary.
sh "$src/tests/cli/completion_test.sh" "$prefix/share/bash-completion/completions/fabplan" "$prefix/bin/fabplan"
echo "install ok"
