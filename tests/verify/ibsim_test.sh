#!/bin/sh
# fabplan verify against the real tools: plan the DGX H100 4-SU preset, write its expected
# fabric (ibnetdiscover.topo), run ibsim on it and the real ibnetdiscover through libumad2sim.so,
# and verify: every planned link ok, exit 0. Then inject miswires into a copy (a swap, a moved
# port, a removed cable, an extra cable, an unknown device, a degraded link), simulate and
# discover that (default and -p forms), and assert every fault by cable id and status, and
# nothing else. Then a second subnet: the storage network of the preset with networks.
# Usage: ibsim_test.sh FABPLAN   (ibsim-utils and infiniband-diags: scripts/install-deps.sh)
# Starts and stops its own ibsim, works in a temporary folder it removes, bounded in time.
set -eu
FABPLAN=$1
SIM_SO=${FABPLAN_UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
for t in ibsim ibnetdiscover; do
    command -v "$t" >/dev/null 2>&1 || {
        echo "ibsim_test: $t not found: run scripts/install-deps.sh (ibsim-utils, infiniband-diags)"
        exit 1
    }
done
[ -r "$SIM_SO" ] || { echo "ibsim_test: $SIM_SO not found (package libumad2sim0)"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fabplan-ibsim-XXXXXX")
# ibsim and its clients meet at a socket named after IBSIM_SOCKNAME (default "sim"): a name of
# this run's own, so that two runs at once (a sanitizer build beside the normal one) never
# talk to each other's simulator.
IBSIM_SOCKNAME=fabplan$$
export IBSIM_SOCKNAME
sim_pid=""
stop_sim() {
    if [ -n "$sim_pid" ]; then
        kill "$sim_pid" 2>/dev/null || true
        wait "$sim_pid" 2>/dev/null || true
        sim_pid=""
    fi
}
cleanup() {
    stop_sim
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
[ -n "${FABPLAN_IBSIM_KEEP:-}" ] && trap stop_sim EXIT
fail() {
    echo "ibsim_test: FAIL: $*"
    exit 1
}

# Simulate topology $1 and write what ibnetdiscover sees to $2 (and its -p form to $2.p).
discover() {
    ibsim -s -n "$1" >"$tmp/ibsim.log" 2>&1 </dev/null &
    sim_pid=$!
    i=0
    until grep -q "Network simulator ready" "$tmp/ibsim.log" 2>/dev/null; do
        i=$((i + 1))
        kill -0 "$sim_pid" 2>/dev/null || fail "ibsim exited: $(tail -5 "$tmp/ibsim.log")"
        [ $i -lt 200 ] || fail "ibsim not ready after 20 s"
        sleep 0.1
    done
    LD_PRELOAD=$SIM_SO timeout 120 ibnetdiscover >"$2" 2>"$tmp/disc.err" ||
        fail "ibnetdiscover: $(tail -3 "$tmp/disc.err")"
    LD_PRELOAD=$SIM_SO timeout 120 ibnetdiscover -p >"$2.p" 2>"$tmp/disc.err" ||
        fail "ibnetdiscover -p: $(tail -3 "$tmp/disc.err")"
    stop_sim
}

"$FABPLAN" plan --preset dgx-h100-4su --formats cables,links,ibnetdiscover -q -o "$tmp/plan" ||
    fail "plan"
plan=$tmp/plan

# 1. The fabric as planned: every planned link ok, exit 0. ibsim brings links up at most at
#    QDR, so widths only (--ignore-speed). 128 servers x 8 ports + 32 leaves x 32 uplinks.
discover "$plan/ibnetdiscover.topo" "$tmp/clean.topo"
for form in clean.topo clean.topo.p; do
    rc=0
    "$FABPLAN" verify "$plan" --ibnetdiscover "$tmp/$form" --ignore-speed -q -o "$tmp/v-$form" ||
        rc=$?
    [ $rc -eq 0 ] || fail "the unchanged fabric ($form) verified with exit $rc"
    n=$(grep -c ',ok,' "$tmp/v-$form/verify.csv")
    [ "$n" -eq 2048 ] || fail "$form: $n links ok, expected 2048"
done

# 2. Miswires, each written into the topology from both ends as ibsim requires:
#    swap:     su01-node-01 mlx5_0 and su01-node-02 mlx5_0 exchange su01-leaf-r1 ports 1 and 2
#    removed:  su01-node-03 mlx5_0 - su01-leaf-r1 port 3 taken out
#    moved:    su01-node-04 mlx5_0 moved from su01-leaf-r1 port 4 to port 3
#    extra:    su01-node-05 mlx5_8 (an HCA the plan does not use) cabled to su01-leaf-r1 port 4
#    unknown:  su02-node-07 mlx5_3 reports the node description "localhost mlx5_3"
#    degraded: su03-leaf-r5 port 6 and its HCA enabled at 1x only: ibsim takes a port's
#              enabled width from the "lid 0 4xNDR" its line ends with, so both say 1xSDR
guid_of() {
    awk -v n="\"$1\"" '{ name = $0; sub(/^[^ ]* /, "", name) } name == n { print substr($1, 3); exit }' \
        "$plan/ib-node-name-map"
}
sw=$(guid_of su01-leaf-r1)
h5=$(guid_of "su01-node-05 mlx5_0")
[ -n "$sw" ] && [ -n "$h5" ] || fail "node-name map lacks su01-leaf-r1 or su01-node-05 mlx5_0"
# the new HCA's GUID: as fabplan numbers them, port 8 of that server (+ 2 x 8)
h58=$(printf '%016x' $((0x$h5 + 16)))
pg=$(printf '%x' $((0x$h5 + 17)))     # its port GUID
awk -v sw="$sw" '
    NR == FNR {     # first pass: su01-leaf-r1 port lines 1, 2 and 4
        if ($0 ~ /^Switch/) in_sw = index($0, "\"su01-leaf-r1\"") > 0
        if (in_sw && match($0, /^\[[0-9]+\]/)) line[substr($0, 2, RLENGTH - 2)] = substr($0, RLENGTH + 1)
        if ($0 == "") in_sw = 0
        next
    }
    /^Switch/ { sw1 = index($0, "\"su01-leaf-r1\"") > 0; sw5 = index($0, "\"su03-leaf-r5\"") > 0 }
    /^Ca/ { ca = $0; sub(/.*# "/, "", ca); sub(/".*/, "", ca) }
    $0 == "" { sw1 = sw5 = 0; ca = "" }
    sw1 && /^\[1\]/ { print "[1]" line[2]; next }
    sw1 && /^\[2\]/ { print "[2]" line[1]; next }
    sw1 && /^\[3\]/ { print "[3]" line[4]; next }
    sw1 && /^\[4\]/ { printf "[4]\t\"H-%s\"[1](%s) \t\t# \"su01-node-05 mlx5_8\" lid 0 4xNDR\n", "'"$h58"'", "'"$pg"'"; next }
    sw5 && /^\[6\]/ { deg = $0; sub(/.*# "/, "", deg); sub(/".*/, "", deg); sub(/ 4x[A-Z]*$/, " 1xSDR"); print; next }
    ca != "" && ca == deg && /^\[1\]/ { sub(/ 4x[A-Z]*$/, " 1xSDR") }
    ca == "su01-node-01 mlx5_0" && /^\[1\]/ { sub(/"\[1\]/, "\"[2]") }
    ca == "su01-node-02 mlx5_0" && /^\[1\]/ { sub(/"\[2\]/, "\"[1]") }
    ca == "su01-node-03 mlx5_0" && /^\[1\]/ { next }
    ca == "su01-node-04 mlx5_0" && /^\[1\]/ { sub(/"\[4\]/, "\"[3]") }
    { gsub(/"su02-node-07 mlx5_3"/, "\"localhost mlx5_3\""); print }
    END {
        printf "\nvendid=0x2c9\ndevid=0x1021\nsysimgguid=0x%s\ncaguid=0x%s\n", "'"$h58"'", "'"$h58"'"
        printf "Ca\t1 \"H-%s\"\t\t# \"su01-node-05 mlx5_8\"\n", "'"$h58"'"
        printf "[1](%s) \t\"S-%s\"[4]\t\t# lid 0 lmc 0 \"su01-leaf-r1\" lid 0 4xNDR\n", "'"$pg"'", sw
    }
' "$plan/ibnetdiscover.topo" "$plan/ibnetdiscover.topo" >"$tmp/built.topo"
discover "$tmp/built.topo" "$tmp/built.out"

# The expected rows, by cable id (each found in cables.csv by its A end) and status.
cable_of() {
    awk -F, -v d="$1" -v p="$2" '$6 == d && $7 == p { print $1; exit }' "$plan/cables.csv"
}
plan_port() {   # "su02-node-07 mlx5_3" -> its plan port (ib-ports.csv)
    awk -F, -v n="$1" '$1 == n { print $4; exit }' "$plan/ib-ports.csv"
}
deg_dev=$(awk -F, '$1 == "su03-leaf-r5" && $2 == "6" { print $3 "," $4; exit }' "$plan/ib-ports.csv")
deg=$(awk -F, -v e="$deg_dev" '($11 "," $12) == e || ($12 "," $13) == e { print $1; exit }' "$plan/cables.csv")
{
    echo "$(cable_of su01-node-01 nic1-p1),swapped"
    echo "$(cable_of su01-node-02 nic1-p1),swapped"
    echo "$(cable_of su01-node-03 nic1-p1),missing"
    echo "$(cable_of su01-node-04 nic1-p1),wrong-port"
    echo "$(cable_of su02-node-07 "$(plan_port "su02-node-07 mlx5_3")"),unknown-device"
    echo "$deg,degraded"
    echo ",unexpected"
} | sort >"$tmp/want"
grep -q '^C[0-9]*,degraded$' "$tmp/want" || fail "no cable found at su03-leaf-r5 port 6"
for form in built.out built.out.p; do
    rc=0
    "$FABPLAN" verify "$plan" --ibnetdiscover "$tmp/$form" --ignore-speed -q -o "$tmp/v-$form" ||
        rc=$?
    [ $rc -eq 1 ] || fail "the miswired fabric ($form) verified with exit $rc, expected 1"
    awk -F, 'NR > 1 && $2 != "ok" { print $1 "," $2 }' "$tmp/v-$form/verify.csv" | sort >"$tmp/got"
    diff "$tmp/want" "$tmp/got" >"$tmp/diff" ||
        fail "$form: rows other than ok differ from the faults injected (< expected, > found):
$(cat "$tmp/diff")"
    n=$(grep -c ',ok,' "$tmp/v-$form/verify.csv")
    [ "$n" -eq 2042 ] || fail "$form: $n links ok, expected 2048 - 6"
    # the moved cable's fix names both ports; the extra cable is the new HCA's
    grep -q 'wrong-port,.*move the Z end from 1/2/1 to 1/2/2 on su01-leaf-r1' "$tmp/v-$form/verify.csv" ||
        fail "$form: the moved port's fix"
    grep -q ',unexpected,.*su01-node-05,mlx5_8,su01-leaf-r1,1/2/2,' "$tmp/v-$form/verify.csv" ||
        fail "$form: the extra cable's found ends"
done
# 3. A second subnet: the storage network of the DGX H100 4-SU preset with networks (QM9700
#    leaves and spines, the servers' storage HCAs mlx5_8 and mlx5_9, the storage arrays),
#    its own ibnetdiscover-storage.topo simulated and discovered: every storage link ok with
#    --network storage; the compute subnet and the Ethernet networks not checked. Expected
#    links: links.csv's rows of the storage network.
"$FABPLAN" plan --preset dgx-h100-4su-networks --formats cables,links,ibnetdiscover -q \
    -o "$tmp/nplan" || fail "plan with networks"
discover "$tmp/nplan/ibnetdiscover-storage.topo" "$tmp/storage.out"
want=$(awk -F, '$NF == "storage"' "$tmp/nplan/links.csv" | wc -l)
[ "$want" -gt 0 ] || fail "no storage link in links.csv"
rc=0
"$FABPLAN" verify "$tmp/nplan" --ibnetdiscover "$tmp/storage.out" --network storage \
    --ignore-speed -q -o "$tmp/v-storage" || rc=$?
[ $rc -eq 0 ] || fail "the storage subnet verified with exit $rc"
n=$(grep -c ',ok,' "$tmp/v-storage/verify.csv")
[ "$n" -eq "$want" ] || fail "storage: $n links ok, expected $want"
rows=$(($(wc -l < "$tmp/v-storage/verify.csv") - 1))
[ "$rows" -eq "$want" ] || fail "storage: $rows rows, expected $want"
echo "ibsim_test: 3 passed, 0 failed"
