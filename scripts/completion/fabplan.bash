# bash completion for fabplan. Commands and options come from the program itself
# (`fabplan _options [COMMAND]`), so the completion follows the version installed.
_fabplan()
{
    local cur prev cmd words
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        words=$("${COMP_WORDS[0]}" _options 2>/dev/null)
        COMPREPLY=($(compgen -W "$words --help --version" -- "$cur"))
        return 0
    fi
    cmd=${COMP_WORDS[1]}
    if [ "$cmd" = help ]; then
        COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" _options 2>/dev/null)" -- "$cur"))
        return 0
    fi
    case $prev in
        --preset)
            COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" presets 2>/dev/null | cut -d' ' -f1)" -- "$cur"))
            return 0 ;;
        --topology) COMPREPLY=($(compgen -W "clos fat-tree rail-optimized" -- "$cur")); return 0 ;;
        --tiers) COMPREPLY=($(compgen -W "auto 2 3 4" -- "$cur")); return 0 ;;
        --split-by) COMPREPLY=($(compgen -W "row hall" -- "$cur")); return 0 ;;
        --paper) COMPREPLY=($(compgen -W "a4 letter" -- "$cur")); return 0 ;;
        --labels) COMPREPLY=($(compgen -W "plain tia606" -- "$cur")); return 0 ;;
        --formats)
            # the names the program takes (`fabplan _options --formats`), comma separated: the last one
            local pre=""
            case $cur in *,*) pre=${cur%,*}, ;; esac
            COMPREPLY=($(compgen -P "$pre" -W "$("${COMP_WORDS[0]}" _options --formats 2>/dev/null)" -- "${cur##*,}"))
            return 0 ;;
        --switch|--nic)
            # catalog part ids; --switch takes one per tier, comma separated: the last one
            local type=switch pre=""
            [ "$prev" = --nic ] && type=nic
            case $cur in *,*) pre=${cur%,*}, ;; esac
            COMPREPLY=($(compgen -P "$pre" -W "$("${COMP_WORDS[0]}" catalog list $type 2>/dev/null | tail -n +2 | cut -d' ' -f1)" -- "${cur##*,}"))
            return 0 ;;
        -o|--out|--phase) COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
        --catalog|--overrides|--ibnetdiscover|--node-name-map|--lldp) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
    esac
    if [ "$cmd" = catalog ] && [ "$COMP_CWORD" -eq 2 ] && [ "${cur#-}" = "$cur" ]; then
        COMPREPLY=($(compgen -W "list show" -- "$cur"))
        return 0
    fi
    if [ "${cur#-}" != "$cur" ]; then
        COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" _options "$cmd" 2>/dev/null)" -- "$cur"))
        return 0
    fi
    COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
    return 0
}
complete -F _fabplan fabplan
