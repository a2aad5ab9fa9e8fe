#!/bin/sh
# Install the Debian packages fabplan builds, tests and runs with.
# chromium: the suite opens report.html and compare.html in it, headless (tests/write/test_report.c).
# ibsim-utils, infiniband-diags: the InfiniBand fabric simulator and the real ibnetdiscover, which
#   tests/verify/ibsim_test.sh runs against a planned fabric (fabplan verify).
# slurmctld, slurm-client: the real Slurm controller and scontrol, which tests/write/slurm_test.sh
#   starts on loopback with a planned topology.conf (--formats slurm).
# fonts-crosextra-carlito: Calibri's metrics (the workbook's font) for LibreOffice, so a printed
#   or PDF workbook keeps its widths: with the DejaVu fallback the Cables sheet prints ~6.7 pt.
# Idempotent: does nothing (no apt-get update, no network) when they are all present.
#   --sanitize  also clang, compiler-rt (libFuzzer, sanitizers) and valgrind, for
#               scripts/ci-sanitize.sh and scripts/fuzz.sh
set -eu
PKGS="build-essential cmake pkg-config libigraph-dev libxlsxwriter-dev libgraphviz-dev graphviz libcjson-dev libcriterion-dev unzip chromium fonts-crosextra-carlito ibsim-utils infiniband-diags slurmctld slurm-client"
if [ "${1:-}" = "--sanitize" ] || [ "${1:-}" = "--fuzz" ]; then
    PKGS="$PKGS clang libclang-rt-14-dev valgrind"
fi
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
