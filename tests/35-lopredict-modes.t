#!/bin/sh
# 35-lopredict-modes.t - lopredict's table of modes (predict/main.c): --help
# lists the modes of the table (--list-options), every mode that
# predict/mode_*.c implements among them, every pair of mode options no mode
# takes together is refused with one line naming both (exit 2, nothing on
# stdout), and --list-algs prints one row per algorithm of the descriptor table.
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null
T=$_d
B=$BIN/lopredict

"$B" --help >"$T/help"
"$B" --list-options >"$T/table"
# The modes of --list-options (mode,options,...: the lines up to the blank one).
sed -n '2,/^$/p' "$T/table" | sed '/^$/d' >"$T/mode-rows"
cut -d, -f1 "$T/mode-rows" | sort >"$T/names"
# "  NAME  --OPTION [ARG]  help" rows between "Modes" and the next blank line.
sed -n '/^Modes/,/^$/p' "$T/help" | sed '1d;$d' >"$T/modes"
check "--help lists the modes of the table ($(tr '\n' ' ' <"$T/names"))" \
    sh -c "test -s '$T/names' && awk '{print \$1}' '$T/modes' | sort | cmp -s - '$T/names'"
sed -n 's/^lop_status_t mode_\([a-z_]*\)_run(.*/\1/p' "$ROOT"/predict/mode_*.c | tr _ - | sort \
    >"$T/implemented"
check "every mode predict/mode_*.c implements is a mode of the table" \
    sh -c "test -s '$T/implemented' && test -z \"\$(comm -23 '$T/implemented' '$T/names')\""
check "... predict is the default, without an option" grep -q '^  predict  *(default)  ' "$T/modes"

# The options that choose modes, with a FILE where they take one (the
# option rows of --list-options give the argument).
cut -d, -f2 "$T/mode-rows" | tr ' ' '\n' | sed '/^$/d' | sort -u >"$T/choosers"
while read -r o; do
    arg=$(sed -n "s/^$o,\([^,]*\),.*/\1/p" "$T/table" | tail -n 1)
    echo "--$o${arg:+ $T/none.csv}"
done <"$T/choosers" >"$T/opts"
n_opts=$(wc -l <"$T/opts")
check "every mode but predict is chosen by options ($n_opts options)" \
    test "$(cut -d, -f2 "$T/mode-rows" | grep -c '^$')" -eq 1 -a "$(head -n 1 "$T/mode-rows" | cut -d, -f1-2)" = predict,

# Every ordered pair that no mode takes together: refused as two modes,
# naming both, whatever the order (--goal with --check-schedule FILE is the
# mode goal-file: the file's schedule as GOAL).
together() { # A B: some mode is chosen by both
    awk -F, -v a="$1" -v b="$2" '{ n = split($2, w, " "); x = y = 0
        for (i = 1; i <= n; i++) { x += w[i] == a; y += w[i] == b } if (x && y) f = 1 }
        END { exit !f }' "$T/mode-rows"
}
pairs=0 bad=0 apart=0
while read -r a; do
    while read -r b; do
        [ "$a" = "$b" ] && continue
        oa=${a%% *} ob=${b%% *}
        together "${oa#--}" "${ob#--}" && continue
        pairs=$((pairs + 1))
        # shellcheck disable=SC2086 # each holds an option and its FILE
        "$B" $a $b >"$T/out" 2>"$T/err"
        rc=$?
        if [ $rc -ne 2 ] || [ -s "$T/out" ] || [ "$(wc -l <"$T/err")" -ne 1 ] ||
            ! grep -q "^lopredict: options .* are two modes" "$T/err" ||
            ! grep -q -- "$oa " "$T/err" || ! grep -q -- "$ob " "$T/err"; then
            bad=$((bad + 1))
            diag "$oa $ob: exit $rc: $(cat "$T/err")"
        fi
    done <"$T/opts"
done <"$T/opts"
check "all $pairs ordered pairs of mode options no mode takes together refused: one line naming both, exit 2" \
    test "$pairs" -eq $((n_opts * (n_opts - 1) - 2)) -a "$bad" -eq 0
"$B" --goal --check-schedule "$T/none.csv" >"$T/out" 2>"$T/err"
check "--goal --check-schedule FILE is one mode (the file is read: $(cat "$T/err"))" \
    sh -c "! grep -q 'two modes' '$T/err' && grep -q 'none.csv' '$T/err'"

# --list-algs: the descriptor table, one row per algorithm of --help's list.
"$B" --list-algs --csv >"$T/algs.csv"
check "--list-algs --csv header" test "$(grep -v '^#' "$T/algs.csv" | head -1)" = \
    "alg,takes_n,default_n,schedule,lop_band_lo,lop_band_hi,title,n_meaning,logp_exact,lop_exact"
grep -v '^#' "$T/algs.csv" | sed 1d | cut -d, -f1 >"$T/algs"
sed -n '/^Algorithms/,$p' "$T/help" | sed -n 's/^  \([a-z]\{2,9\}\) .*/\1/p' >"$T/help-algs"
check "... a row for every algorithm of --help, in its order ($(wc -l <"$T/algs"))" \
    sh -c "test -s '$T/algs' && cmp -s '$T/algs' '$T/help-algs'"
check "... takes_n yes exactly where --help names an n" test \
    "$(grep -c '^[a-z]*,yes,' "$T/algs.csv")" -eq "$(grep -c '^  [a-z]* .*; n: ' "$T/help")"
check "... ndiss: takes n, default 2, a schedule" grep -q '^ndiss,yes,2,yes,' "$T/algs.csv"
check "... hwnet: no n, no schedule (cost only)" grep -q '^hwnet,no,,no,' "$T/algs.csv"
"$B" --list-algs >"$T/algs.txt"
check "--list-algs as a table: the same rows" \
    test "$(grep -vc '^#' "$T/algs.txt")" -eq "$(grep -vc '^#' "$T/algs.csv")"
refuses_one_line "--list-algs --p 4: --p would be ignored" 2 "option --p has no effect with --list-algs" \
    "$B" --list-algs --p 4

done_testing
