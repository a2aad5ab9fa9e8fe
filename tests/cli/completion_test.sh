#!/bin/sh
# The bash completion: load the script into bash, ask it what a user's TAB would show, check
# commands, options of a command, a did-you-mean-free prefix, and option values.
# usage: completion_test.sh COMPLETION_SCRIPT FABPLAN_BINARY
set -eu
script=$1; bin=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ln -s "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$dir/fabplan"
complete_line() {
    # $@: the words on the line, the last one being completed
    PATH="$dir:$PATH" bash -c '
        . "$0"
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _fabplan
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' "$script" "$@"
}
check() {
    want=$1; shift
    got=$(complete_line "$@")
    case " $got" in
        *" $want "*) ;;
        *) echo "completion of '$*': expected $want in: $got" >&2; exit 1 ;;
    esac
}
check plan fabplan ""
check compare fabplan co
check validate fabplan help va
check --gpus fabplan plan --gp
check --oversubscription fabplan plan --overs
check --min-bisection fabplan compare --min
check --paper fabplan plan --pa
check fat-tree fabplan plan --topology fa
check letter fabplan plan --paper l
check show fabplan catalog s
check default fabplan plan --preset de
# part ids from the catalog (issue 27): a switch, the next tier's after a comma, a NIC
check generic-th4-64x400 fabplan plan --switch generic-th4
check generic-th4-64x400,nvidia-qm9700 fabplan compare --switch generic-th4-64x400,nvidia-qm97
check nvidia-cx7-osfp fabplan plan --nic nvidia-cx7-o
check ibnetdiscover fabplan plan --formats ibn
# every name --formats takes, as the program lists them when one is unknown (the help text names
# each of them too), completes; the last of a comma list does after the others
names=$("$bin" plan --formats "?" 2>&1 >/dev/null | sed -n 's/.*expected a comma list of: //p' | tr -d ',')
[ -n "$names" ] || { echo "no --formats names in plan's message" >&2; exit 1; }
for want in slurm k8s; do
    case " $names " in *" $want "*) ;; *) echo "--formats names lack $want: $names" >&2; exit 1 ;; esac
done
help=$("$bin" plan --help | tr -s ' \n,().' '     ')
for f in $names; do
    check "$f" fabplan plan --formats "$f"
    check "json,$f" fabplan plan --formats "json,$f"
    case " $help " in *" $f "*) ;; *) echo "plan --help does not name --formats $f" >&2; exit 1 ;; esac
done
# compare's filters are not plan options
got=$(complete_line fabplan plan --min)
got=$(echo $got)
[ -z "$got" ] || { echo "plan --min completed to: $got" >&2; exit 1; }
echo "completion ok"
