#!/bin/sh
# Install into a scratch prefix, then build and run the embedding example against the
# installed headers and library through pkg-config, as a user of the library would: linked
# to the shared library, and linked statically to libfabplan.a.
set -eu
build=$1; src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
pcdir=$(dirname "$(find "$prefix" -name fabplan.pc)")
pc() { PKG_CONFIG_PATH=$pcdir pkg-config "$@" fabplan; }
# --cflags is fabplan's own include directory and nothing else: the dependencies' headers are
# not part of the API, so their include paths must not reach an embedder's build.
cflags=$(pc --cflags)
set -- $cflags
if [ $# -ne 1 ] || [ "${1#-I}" = "$1" ] || [ "$(cd "${1#-I}" && pwd -P)" != "$(cd "$prefix/include" && pwd -P)" ]; then
    echo "install: pkg-config --cflags fabplan is '$cflags', expected only -I$prefix/include" >&2
    exit 1
fi
flags="$cflags $(pc --libs)"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror "$src/examples/embed/main.c" $flags -o "$prefix/embed"
LD_LIBRARY_PATH=$(dirname "$(find "$prefix" -name 'libfabplan.so' | head -1)") "$prefix/embed" | grep -q '^tiers 3$'
# Static: libfabplan.a plus the private libraries pkg-config --static lists; the result needs
# no libfabplan.so at run time.
libdir=$(dirname "$(find "$prefix" -name 'libfabplan.a' | head -1)")
static_libs=$(pc --static --libs | sed 's/-lfabplan//')
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror "$src/examples/embed/main.c" $cflags "$libdir/libfabplan.a" $static_libs \
    -o "$prefix/embed-static"
if ldd "$prefix/embed-static" | grep -q libfabplan; then
    echo "install: the static build still loads libfabplan.so" >&2
    exit 1
fi
"$prefix/embed-static" | grep -q '^tiers 3$'
# `man fabplan` finds the installed page (MANPATH as a user with this prefix would set it).
MANPATH=$prefix/share/man MANWIDTH=80 man fabplan 2>/dev/null | grep -q 'plan the network fabric of a GPU cluster'
# The reference the manual page names is installed where it says (issue 27: it named
# docs/spec.md, which no install had).
for f in spec.md outputs.md layout.md metrics.md; do
    [ -s "$prefix/share/doc/fabplan/$f" ] || { echo "install: no share/doc/fabplan/$f" >&2; exit 1; }
    MANPATH=$prefix/share/man MANWIDTH=200 man fabplan 2>/dev/null | grep -q "$f" ||
        { echo "install: the manual page does not name $f" >&2; exit 1; }
done
# The installed completion completes commands and a command's options from the installed binary.
sh "$src/tests/cli/completion_test.sh" "$prefix/share/bash-completion/completions/fabplan" "$prefix/bin/fabplan"
# find_package: the installed version accepts a request for its own MAJOR.MINOR and refuses an
# earlier minor (on 0.x every minor release may change the ABI, so 0.2 must not pass for 0.1).
ver=$(sed -n 's/^#define FP_VERSION "\(.*\)"/\1/p' "$src/include/fabplan.h")
mm=${ver%.*}
cfgdir=$(dirname "$(find "$prefix" -name fabplan-config-version.cmake)")
find_version() {
    cat > "$prefix/find-version.cmake" <<CMK
set(PACKAGE_FIND_VERSION "$1")
set(PACKAGE_FIND_VERSION_MAJOR "${1%%.*}")
set(PACKAGE_FIND_VERSION_MINOR "${1#*.}")
set(PACKAGE_FIND_VERSION_COUNT 2)
include("$cfgdir/fabplan-config-version.cmake")
message(STATUS "compatible=\${PACKAGE_VERSION_COMPATIBLE}")
CMK
    cmake -P "$prefix/find-version.cmake" 2>&1
}
find_version "$mm" | grep -q 'compatible=TRUE' || { echo "install: find_package(fabplan $mm) refused $ver" >&2; exit 1; }
if [ "${mm#*.}" -gt 0 ]; then
    earlier="${mm%%.*}.$(( ${mm#*.} - 1 ))"
    find_version "$earlier" | grep -q 'compatible=FALSE' || { echo "install: find_package(fabplan $earlier) accepted $ver" >&2; exit 1; }
fi
echo "install ok"
