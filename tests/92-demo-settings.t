#!/bin/sh
# 92-demo-settings.t - make demo (scripts/demo.sh) checks every setting
# before it builds, measures or writes anything: a bad REPS or OUT is one
# line and no OUT (REPS=abc was a shell error at step 2, REPS=0 refused by
# lopbench after OUT/data existed, an OUT with a newline failed at the fit).
# Cheap: nothing here runs the demo (90-demo.t does).
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
NL='
'
# refused NAME PATTERN VAR=VALUE...: demo.sh with these settings fails,
# saying PATTERN in one "demo:" line, and makes no $T/out
refused() {
    _n=$1 _p=$2
    shift 2
    env "$@" sh "$ROOT/scripts/demo.sh" >"$T/log" 2>&1 && fail "$_n: fails" || pass "$_n: fails"
    check "... saying why in one line ($(grep -c '^demo: ' "$T/log") lines)" \
        test "$(grep -c '^demo: ' "$T/log")" -eq 1 -a "$(grep -c "^demo: $_p" "$T/log")" -eq 1
    check "... and writes nothing" test -z "$(ls -A "$T" | grep -v '^log$')"
}
refused "REPS=abc" "REPS=abc: expected a whole number" REPS=abc OUT="$T/out"
refused "REPS=010" "REPS=010: expected a whole number" REPS=010 OUT="$T/out"
refused "REPS=0" "REPS=0: from 10 " REPS=0 OUT="$T/out"
refused "REPS=9" "REPS=9: from 10 " REPS=9 OUT="$T/out"
refused "REPS=10000001" "REPS=10000001: from 10 " REPS=10000001 OUT="$T/out"
refused "REPS=99999999999999999999" "REPS=99999999999999999999: from 10 " \
    REPS=99999999999999999999 OUT="$T/out"
refused "OUT with a newline" "OUT=$T/a\$" OUT="$T/a${NL}b"
check "... which it names" grep -qx "b: a directory name with a newline or a single quote (gnuplot's strings)" "$T/log"
refused "OUT with a single quote" "OUT=$T/a'b: a directory name with a newline or a single quote" \
    OUT="$T/a'b"
mkdir "$T/old" && echo keep >"$T/old/mine"
env OUT="$T/old" sh "$ROOT/scripts/demo.sh" >"$T/log" 2>&1 && fail "an OUT that exists: fails" ||
    pass "an OUT that exists: fails"
check "... saying so in one line" test "$(grep -c "^demo: OUT=$T/old exists: " "$T/log")" -eq 1
check "... and leaves it as it was" test "$(ls -A "$T/old")" = mine -a "$(cat "$T/old/mine")" = keep
done_testing
