#!/bin/sh
# 35-lopredict-modes.t - lopredict's table of modes (predict/main.c): --help
# lists every mode that predict/mode_*.c implements, every pair of mode options
# is refused with one line naming both (exit 2, nothing on stdout), and
# --list-algs prints one row per algorithm of the descriptor table.
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null
T=$_d
B=$BIN/lopredict

"$B" --help >"$T/help"
# "  NAME  --OPTION [ARG]  help" rows between "Modes" and the next blank line.
sed -n '/^Modes/,/^$/p' "$T/help" | sed '1d;$d' >"$T/modes"
awk '{print $1}' "$T/modes" | sort >"$T/names"
sed -n 's/^lop_status_t mode_\([a-z_]*\)_run(.*/\1/p' "$ROOT"/predict/mode_*.c | tr _ - | sort \
    >"$T/implemented"
check "--help lists every mode predict/mode_*.c implements, and no other ($(tr '\n' ' ' <"$T/names"))" \
    sh -c "test -s '$T/names' && cmp -s '$T/names' '$T/implemented'"
check "... predict is the default, without an option" grep -q '^  predict  *(default)  ' "$T/modes"

# The options of the modes, with a FILE where they take one.
awk '$2 ~ /^--/ { print $2 ($3 == "FILE" ? " '"$T"'/none.csv" : "") }' "$T/modes" >"$T/opts"
n_opts=$(wc -l <"$T/opts")
check "every mode but predict has an option ($n_opts)" test "$n_opts" -eq $(($(wc -l <"$T/names") - 1))

# Every ordered pair: refused as two modes, naming both, whatever the order.
# --goal with --check-schedule FILE is no pair: --goal prints the file's schedule.
pairs=0 bad=0
while read -r a; do
    while read -r b; do
        [ "$a" = "$b" ] && continue
        oa=${a%% *} ob=${b%% *}
        case "$oa $ob" in "--goal --check-schedule" | "--check-schedule --goal") continue ;; esac
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
check "all $pairs ordered pairs of mode options refused: one line naming both, exit 2" \
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
