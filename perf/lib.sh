# perf/lib.sh - what every performance script of perf/ prints around its
# table, so that its output pasted into perf/README.md is the page's entry:
# a title line naming the date, the machine and the command, then a
# Markdown table.  Sourced by the scripts; not run by itself.

# The title line: date, host, cores, CPU model, and the command "$@".
perf_title() {
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
    printf '**%s, %s (%s cores%s):** `%s`\n\n' "$(date '+%Y-%m-%d')" "$(uname -n)" "$(nproc)" \
        "${cpu:+, $cpu}" "$*"
}

# The arguments as a shell would take them back: quoted where they hold a
# space, for the title's command.
perf_quote() {
    sep=
    for a in "$@"; do
        case $a in
        *' '*) printf "%s'%s'" "$sep" "$a" ;;
        *) printf '%s%s' "$sep" "$a" ;;
        esac
        sep=' '
    done
}

# One table row from its cells.
perf_row() {
    printf '|'
    for cell in "$@"; do
        printf ' %s |' "$cell"
    done
    printf '\n'
}

# The header row and the rule below it.
perf_header() {
    perf_row "$@"
    for cell in "$@"; do
        printf '| --- '
    done
    printf '|\n'
}

# The machine's load average over the last minute.
perf_load() {
    cut -d' ' -f1 /proc/loadavg
}
