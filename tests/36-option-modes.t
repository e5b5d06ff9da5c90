#!/bin/sh
# 36-option-modes.t - which options each mode takes, as data.  Every tool's
# --list-options prints the table its --help and its checks are made from
# (src/cli.h: a mode is chosen by its options; an option row names the modes
# it has an effect in and what it needs).  From it: every option given in a
# mode its row leaves out, every option without what it needs, and every
# two modes together are refused before any output: exit 2, one line naming
# the option, nothing on stdout.  Then the combinations once silently
# ignored, each by name.  lopbench refuses without mpirun (one MPI process).
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null
T=$_d
# lopbench refuses after MPI_Init: a singleton that starts no daemon
export OMPI_MCA_ess_singleton_isolated=1 OMPI_MCA_btl=self

# refused TOOL CMD...: exit 2, nothing on stdout, one line "TOOL: ..." on
# stderr (left in $T/err); else 1, with a diagnostic.
refused() {
    _tool=$1
    shift
    "$@" </dev/null >"$T/out" 2>"$T/err"
    _rc=$?
    [ $_rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
        grep -q "^$_tool: " "$T/err" && return 0
    diag "$*: exit $_rc: $(head -c 300 "$T/err")"
    return 1
}

# value TOOL OPTION ARG: a value the option parses (the checks of the table
# come after parsing, so each case must parse).
value() {
    case $1:$2 in
    *:alg | lopredict:hybrid-algs) echo diss ;;
    lopredict:model) echo logp ;;
    lopredict:stat | lopbench:pairs-stat | lopfit:stat) echo min ;;
    lopredict:series) echo rdmaw-inline ;;
    lopredict:topology) echo 2x2 ;;
    lopredict:level-L | lopredict:level-o) echo 1,1 ;;
    lopredict:map) echo rr ;;
    lopredict:lop-arg) echo batch ;;
    lopredict:recv-order) echo arrival ;;
    lopredict:draws) echo 100 ;;
    lopbench:scenario) echo 1 ;;
    lopbench:ops) echo send ;;
    lopbench:post) echo normal ;;
    lopbench:transport) echo mpi ;;
    lopbench:executor) echo p2p ;;
    lopbench:congest) echo incast ;;
    lopbench:method) echo issend ;;
    lopbench:check-witness) echo two-sided ;;
    lopbench:rma | lopbench:gid-index | lopfit:model) echo auto ;;
    lopfit:criterion) echo aicc ;;
    lopfit:weight) echo rel ;;
    lopfit:gnuplot-expr) echo rtt ;;
    lopfit:noise | lopfit:noise-us) echo 0.1 ;;
    *) case $3 in FILE) echo "$T/none.csv" ;; DIR) echo "$T/out.d" ;; *) echo 2 ;; esac ;;
    esac
}

# The tables of TOOL: $T/TOOL.modes (mode,options,operands,needs,implies)
# and $T/TOOL.opts (option,arg,modes,only_with,chooses), headers dropped.
tables() {
    "$BIN/$1" --list-options >"$T/$1.list"
    sed -n '2,/^$/p' "$T/$1.list" | sed '/^$/d' >"$T/$1.modes"
    sed '1,/^$/d' "$T/$1.list" | sed 1d >"$T/$1.opts"
    [ -s "$T/$1.modes" ] && [ -s "$T/$1.opts" ]
}

# words TOOL: $T/TOOL.words.MODE, for each mode the words that choose it,
# with what it needs and its operands (a file: the refusals come before
# anything is read).
words() {
    while IFS=, read -r mode opts operands needs _; do
        for o in $opts $needs; do
            arg=$(awk -F, -v o="$o" '$1 == o { print $2 }' "$T/$1.opts")
            printf -- '--%s ' "$o"
            [ -z "$arg" ] || printf '%s ' "$(value "$1" "$o" "$arg")"
        done >"$T/$1.words.$mode"
        [ -z "$operands" ] || printf '%s ' "$T/none.csv" >>"$T/$1.words.$mode"
    done <"$T/$1.modes"
}

# The options that choose no mode, in each mode their row leaves out, and
# where the mode takes them but implies nothing they need, without it.
option_cases() {
    tool=$1 n=0 bad=0
    while IFS=, read -r opt arg takes need chooses; do
        [ -z "$chooses" ] && [ "$opt" != help ] && [ "$opt" != list-options ] || continue
        v=$([ -z "$arg" ] || value "$tool" "$opt" "$arg")
        while IFS=, read -r mode _ _ _ implies; do
            want="option --$opt\(: only with \| has no effect with \)"
            case " $takes " in
            *" $mode "*)
                [ -n "$need" ] || continue
                for alt in $(echo "$need" | tr '|' ' '); do
                    case " $implies " in *" $alt "*) continue 2 ;; esac
                done
                want="option --$opt: only with " ;;
            esac
            n=$((n + 1))
            # shellcheck disable=SC2046 # the words of a mode, the option and its value
            refused "$tool" "$BIN/$tool" $(cat "$T/$tool.words.$mode") "--$opt" $v &&
                grep -q "^$tool: $want" "$T/err" || { bad=$((bad + 1)); diag "$mode --$opt"; }
        done <"$T/$tool.modes"
    done <"$T/$tool.opts"
    check "$tool: each of the $n cases of an option outside its modes or without its need is refused" \
        test "$n" -gt 0 -a "$bad" -eq 0
}

# Two modes whose options together choose no mode.
mode_pairs() {
    tool=$1 n=0 bad=0
    awk -F, '{ n = split($2, w, " "); s = ""; for (i = 1; i <= n; i++) s = s " " w[i]; print $1 "," s }' \
        "$T/$tool.modes" >"$T/$tool.sets"
    while IFS=, read -r a sa; do
        while IFS=, read -r b sb; do
            [ "$a" \< "$b" ] && [ -n "$sa" ] && [ -n "$sb" ] || continue
            u=$(printf '%s\n' $sa $sb | sort -u | tr '\n' ' ')
            while IFS=, read -r _ s; do
                [ "$(printf '%s\n' $s | sort -u | tr '\n' ' ')" = "$u" ] && continue 2
            done <"$T/$tool.sets"
            n=$((n + 1))
            # shellcheck disable=SC2046 # the words of two modes
            refused "$tool" "$BIN/$tool" $(cat "$T/$tool.words.$a" "$T/$tool.words.$b") &&
                grep -q "^$tool: option.* \(are two modes\|only with\)" "$T/err" ||
                { bad=$((bad + 1)); diag "$a with $b"; }
        done <"$T/$tool.sets"
    done <"$T/$tool.sets"
    check "$tool: each of the $n pairs of modes no mode combines is refused" test "$n" -gt 0 -a "$bad" -eq 0
}

# dict_has TOOL: every option of TOOL's table is a word of the option
# fuzzers' dictionary (fuzz/README.md: getopt compares option names in
# uninstrumented libc, so the fuzzer cannot find one the dictionary lacks).
dict_has() {
    _miss=$(cut -d, -f1 "$T/$1.opts" | while read -r o; do
        grep -qx "\"--$o\"" "$ROOT/fuzz/dict/opts.dict" || printf ' --%s' "$o"; done)
    [ -z "$_miss" ] || diag "not in fuzz/dict/opts.dict:$_miss"
    [ -z "$_miss" ]
}

for tool in lopredict lopfit lopbench; do
    check "$tool --list-options: the modes and the options" tables "$tool"
    check "$tool: every option in fuzz/dict/opts.dict" dict_has "$tool"
    words "$tool"
    option_cases "$tool"
    mode_pairs "$tool"
    "$BIN/$tool" --help >"$T/$tool.help"
    check "$tool --help lists the modes of the table" \
        test "$(sed -n '/^Modes/,/^$/p' "$T/$tool.help" | awk 'NR > 1 && NF { print $1 }')" = \
        "$(cut -d, -f1 "$T/$tool.modes")"
done

# ---- the combinations once ignored, by name
"$BIN/lopredict" --schedule --alg diss --p 4 >"$T/s.csv"
S=$T/s.csv
# by NAME TOOL PATTERN ARGS...: refused, the line matching PATTERN
by() {
    _n=$1 _t=$2 _p=$3
    shift 3
    if refused "$_t" "$BIN/$_t" "$@" && grep -q "^$_t: $_p" "$T/err"; then pass "$_n"; else fail "$_n"; fi
}
P=lopredict
by "--check-schedule F --alg" $P "option --alg has no effect with --check-schedule" --check-schedule "$S" --alg diss
by "--check-schedule F --p" $P "option --p has no effect" --check-schedule "$S" --p 4
by "--check-schedule F --n" $P "option --n has no effect" --check-schedule "$S" --n 2
by "--goal --check-schedule F --alg rgm --p 7" $P "option --alg has no effect with --goal --check-schedule" \
    --goal --check-schedule "$S" --alg rgm --p 7
by "--goal --csv, as --check-schedule --csv" $P "option --csv has no effect with --goal" --goal --csv --alg diss --p 4
by "--check-schedule --csv" $P "option --csv has no effect with --check-schedule" --check-schedule "$S" --csv
for o in "draws 100" "recv-order arrival" "lop-arg batch"; do
    # shellcheck disable=SC2086 # an option and its value
    by "--${o%% *} without --simulate" $P "option --${o%% *}: only with --simulate" --p 4 --$o
done
by "--hybrid-algs without hybrid, as --placement" $P "option --hybrid-algs: only with --alg hybrid" \
    --p 4 --hybrid-algs diss
by "--placement without hybrid" $P "option --placement: only with --alg hybrid" --p 4 --placement "$S"
by "--hybrid-report --alg diss" $P "option --alg has no effect with --hybrid-report" \
    --hybrid-report --alg diss --topology 2x2 --level-L 1,1 --level-o 1,1
by "--best --simulate" $P "option --simulate has no effect with --best" --best --simulate --p 4
by "--cnt 1.5: a whole number" $P "option --cnt: '1.5' is not a whole number" --cnt 1.5 --p 4
check "--cnt 1e6 is a whole number" sh -c "'$BIN/lopredict' --cnt 1e6 --p 4 >/dev/null 2>&1"

B=lopbench
by "--seed without --check or --congest uniform" $B "option --seed: only with --check or --congest uniform" \
    --seed 3
by "--check-delay-us without --barrier --check" $B "option --check-delay-us: only with --barrier" \
    --check-delay-us 5
by "--barrier --seed without --check" $B "option --seed: only with --check" --barrier --seed 3
by "--barrier --check-delay-us without --check" $B "option --check-delay-us: only with --check" \
    --barrier --check-delay-us 5
by "--mcast-nak-ms without --barrier" $B "option --mcast-nak-ms: only with --barrier" --mcast-nak-ms 5
for o in raw "idle-us 5" "max-post 3" "scenario 1" "post normal"; do
    # shellcheck disable=SC2086 # an option and its value
    by "--barrier --${o%% *}" $B "option --${o%% *} has no effect with --barrier" --barrier --$o
done
by "--schedule F --n 3" $B "option --n has no effect with --barrier --schedule" \
    --barrier --schedule "$S" --n 3
for v in "LOP_TEST_MCAST_NONE=two" "LOP_TEST_MCAST_DROP=1" "LOP_TEST_SCHEDULE_UNCHECKED=yes" \
         "LOP_TIMER=bogus"; do
    if refused $B env "$v" "$BIN/lopbench" && grep -q "^lopbench: ${v%%=*}: '${v#*=}'" "$T/err"; then
        pass "$v refused without --barrier: $(cat "$T/err")"
    else
        fail "$v refused without --barrier"
    fi
done
check "--help documents LOP_TIMER" grep -q 'LOP_TIMER=clock' "$T/lopbench.help"

F=lopfit
for m in "rtt=rtt,,os=ov" ",rtt=rtt" "rtt=rtt,"; do
    by "--model '$m': an empty item" $F "option --model: empty item in '$m'" --model "$m" "$S"
done
by "--gnuplot-expr with -o" $F "option --output has no effect with --gnuplot-expr" \
    --gnuplot-expr rtt -o "$T/D" "$S"
by "--gnuplot-expr with a file" $F "option --gnuplot-expr takes no data files" --gnuplot-expr rtt "$S"

done_testing
