#!/bin/sh
# fabplan's Slurm topology.conf against the real slurmctld (Debian's slurmctld and
# slurm-client: scripts/install-deps.sh). For the DGX H100 4-SU preset (rail-optimized, 2 tiers)
# and a 3-tier Clos (1,024 GPUs, 8 x 400G NICs per server, 32-port switches: 2 servers per leaf,
# 16 leaves per pod, 4 pods), write topology.conf with --formats slurm,links, start slurmctld on
# loopback with it (AuthType=auth/none, a node per server with NodeAddr on 127.0.x.y, the
# controller on a free loopback port, state in a temporary folder) and check what
# `scontrol show topology` reports, names expanded by `scontrol show hostnames` (Slurm's own
# hostlist parser):
#   - every node under exactly one level-0 switch, and that switch is the one the folding rule
#     gives, derived here from links.csv, not from topology.conf: a rail-optimized fabric's
#     scalable unit (every leaf of the node is suNN-leaf-rK: the switch is suNN), a Clos
#     fabric's leaf (the one leaf the node's links reach);
#   - a Clos level-1 switch is a pod: every spine its leaves' uplinks reach is <pod>-spine-*;
#   - levels 0 .. tiers - 1 (2 and 3), exactly one switch at the top level, holding every node.
# Usage: slurm_test.sh FABPLAN. Starts and stops its own slurmctld, works in a temporary folder
# it removes, bounded in time.
set -eu
FABPLAN=$1
for t in slurmctld scontrol; do
    command -v "$t" >/dev/null 2>&1 || {
        echo "slurm_test: $t not found: run scripts/install-deps.sh (slurmctld, slurm-client)"
        exit 1
    }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fabplan-slurm-XXXXXX")
ctld=""
stop_ctld() {
    if [ -n "$ctld" ]; then
        kill "$ctld" 2>/dev/null || true
        i=0
        while kill -0 "$ctld" 2>/dev/null && [ $i -lt 200 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -9 "$ctld" 2>/dev/null || true
        wait "$ctld" 2>/dev/null || true
        ctld=""
    fi
}
cleanup() {
    stop_ctld
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail() {
    echo "slurm_test: FAIL: $*"
    exit 1
}

# A free TCP port on 127.0.0.1 (and the next one, for slurmd's, which nothing binds here).
free_port() {
    p=$(( ($$ % 20000) + 30000 ))
    while :; do
        if ! grep -qi ":$(printf '%04X' "$p") " /proc/net/tcp 2>/dev/null; then
            echo "$p"
            return
        fi
        p=$((p + 2))
    done
}

# check NAME TIERS KIND PLAN_DIR: run slurmctld on PLAN_DIR/topology.conf and check it.
check() {
    name=$1 tiers=$2 kind=$3 plan=$4
    dir=$tmp/$name
    mkdir -p "$dir/state" "$dir/spool"
    # the servers (A end of every nic-leaf link) and, per server, its leaves
    awk -F, '$7 == "nic-leaf" { print $2 "," $4 }' "$plan/links.csv" | sort -u >"$dir/srv-leaf"
    cut -d, -f1 "$dir/srv-leaf" | sort -u >"$dir/nodes"
    n=$(wc -l <"$dir/nodes")
    [ "$n" -gt 0 ] || fail "$name: no servers in links.csv"
    port=$(free_port)
    cat >"$dir/slurm.conf" <<EOF
ClusterName=fabplan
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=$(id -un)
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmctldLogFile=$dir/slurmctld.log
TopologyPlugin=topology/tree
SelectType=select/cons_tres
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
EOF
    awk '{ i = NR + 1; printf "NodeName=%s NodeAddr=127.0.%d.%d CPUs=1 State=UNKNOWN\n", $1, int(i / 250), i % 250 + 1 }' \
        "$dir/nodes" >>"$dir/slurm.conf"
    echo "PartitionName=all Nodes=ALL Default=YES" >>"$dir/slurm.conf"
    cp "$plan/topology.conf" "$dir/topology.conf"
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -D -i -f "$dir/slurm.conf" >"$dir/ctld.out" 2>&1 </dev/null &
    ctld=$!
    i=0
    until timeout 5 scontrol show topology >"$dir/topo" 2>"$dir/topo.err" && [ -s "$dir/topo" ]; do
        i=$((i + 1))
        kill -0 "$ctld" 2>/dev/null || fail "$name: slurmctld exited: $(tail -5 "$dir/ctld.out")"
        [ $i -lt 100 ] || fail "$name: scontrol show topology gave nothing in 30 s: $(cat "$dir/topo.err")"
        sleep 0.3
    done
    # what the topology plugin logged against the file (Debian's build also logs a MailProg and
    # a PMIx library it lacks: not this test's)
    ! grep -iE 'error.*(topolog|switch)' "$dir/slurmctld.log" >"$dir/errors" ||
        fail "$name: slurmctld logged errors: $(head -3 "$dir/errors")"

    # each switch: name level nodes switches, one per line
    awk '{ sw = lv = nd = ch = "-"
           for (k = 1; k <= NF; k++) {
               split($k, kv, "=")
               if (kv[1] == "SwitchName") sw = kv[2]
               else if (kv[1] == "Level") lv = kv[2]
               else if (kv[1] == "Nodes") nd = kv[2]
               else if (kv[1] == "Switches") ch = kv[2]
           }
           print sw, lv, nd, ch }' "$dir/topo" >"$dir/sw"
    # levels 0 .. tiers - 1, one switch at the top holding every node
    levels=$(awk '{ print $2 }' "$dir/sw" | sort -u | tr '\n' ' ')
    want=$(seq 0 $((tiers - 1)) | tr '\n' ' ')
    [ "$levels" = "$want" ] || fail "$name: levels '$levels', expected '$want'"
    tops=$(awk -v t=$((tiers - 1)) '$2 == t' "$dir/sw" | wc -l)
    [ "$tops" -eq 1 ] || fail "$name: $tops switches at the top level, expected 1"
    top_nodes=$(awk -v t=$((tiers - 1)) '$2 == t { print $3 }' "$dir/sw")
    scontrol show hostnames "$top_nodes" | sort >"$dir/top-nodes"
    cmp -s "$dir/top-nodes" "$dir/nodes" || fail "$name: the top switch does not hold every node"
    # every node under exactly one leaf, the folding rule's
    awk '$2 == 0 { print $1, $3 }' "$dir/sw" | while read -r sw list; do
        scontrol show hostnames "$list" | sed "s/\$/ $sw/"
    done | sort >"$dir/node-leaf"
    cut -d' ' -f1 "$dir/node-leaf" | sort | uniq -d >"$dir/twice"
    [ ! -s "$dir/twice" ] || fail "$name: nodes under two leaves: $(head -3 "$dir/twice")"
    cut -d' ' -f1 "$dir/node-leaf" | cmp -s - "$dir/nodes" || fail "$name: nodes under no leaf"
    if [ "$kind" = rail ]; then
        # suNN-node-MM's leaves are all suNN-leaf-r*: its switch is suNN
        awk -F, '{ su = $2; sub(/-leaf-.*/, "", su); print $1, su }' "$dir/srv-leaf" | sort -u >"$dir/expect"
    else
        awk -F, '{ print $1, $2 }' "$dir/srv-leaf" | sort -u >"$dir/expect"
    fi
    cmp -s "$dir/expect" "$dir/node-leaf" ||
        fail "$name: nodes not under their leaf group (< expected, > slurmctld): $(diff "$dir/expect" "$dir/node-leaf" | head -5)"
    if [ "$kind" = clos ]; then
        # a level-1 switch is a pod: its leaves' spines are all <pod>-spine-*
        awk -F, '$7 == "leaf-spine" { print $2, $4 }' "$plan/links.csv" | sort -u >"$dir/leaf-spine"
        awk '$2 == 1 { print $1, $4 }' "$dir/sw" | while read -r pod list; do
            scontrol show hostnames "$list" | while read -r leaf; do
                awk -v l="$leaf" -v p="$pod" '$1 == l && index($2, p "-spine-") != 1 { print "bad", l, $2 }
                                              $1 == l { seen = 1 } END { if (!seen) print "none", l }' \
                    "$dir/leaf-spine"
            done
        done >"$dir/bad-pods"
        [ ! -s "$dir/bad-pods" ] || fail "$name: leaves under the wrong pod: $(head -3 "$dir/bad-pods")"
        [ "$(awk '$2 == 1' "$dir/sw" | wc -l)" -eq 4 ] || fail "$name: expected 4 pods"
    fi
    stop_ctld
    echo "slurm_test: $name: $n nodes, levels $levels, one top: ok"
}

"$FABPLAN" plan --preset dgx-h100-4su --formats slurm,links -q -o "$tmp/dgx" || fail "plan dgx-h100-4su"
check dgx-h100-4su 2 rail "$tmp/dgx"
"$FABPLAN" plan --topology clos --tiers 3 --gpus 1024 --gpus-per-server 8 --nic nvidia-cx7-osfp \
    --switch generic-th3-32x400 --formats slurm,links -q -o "$tmp/clos" || fail "plan the 3-tier Clos"
check clos-3tier 3 clos "$tmp/clos"
echo "slurm_test: 2 passed, 0 failed"
