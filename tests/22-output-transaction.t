#!/bin/sh
# 22-output-transaction.t - a run's output directory is all or nothing
# (README, Data formats): an interrupted lopfit -o or a killed lopbench leaves
# the old complete set (or a set marked incomplete), never a mix and never a
# temporary file, at most (after SIGKILL) a stage the next run removes;
# readers refuse a set marked incomplete; files get the user's umask.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
F=$BIN/lopfit
M=$ROOT/data/mozart-2005/params.csv

# leftovers DIR: temporary files or staging directories in DIR
leftovers() { [ ! -e "$1" ] || find "$1" \( -name '*.tmp.*' -o -name '.lop-stage.*' \) | head -3; }

# The old set: the Mozart tables.  The new set: the same names, p = 1..50000
# (about 50 MB, long enough to be interrupted while it is written; Mozart's
# exponential fits stay within the times lopfit takes up to there).
"$F" --from-params "$M" -o "$T/old" 2>/dev/null
awk -F, 'BEGIN { OFS = "," } /^#/ || $1 == "file" { print; next } { $8 = 50000; print }' \
    "$M" >"$T/big.csv"
"$F" --from-params "$T/big.csv" -o "$T/new" 2>/dev/null
check "reference sets written" test -s "$T/old/lop-send-normal-min.csv" -a \
    -s "$T/new/lop-send-normal-min.csv"
check "... and they differ" sh -c "! cmp -s '$T/old/lop-send-normal-min.csv' \
    '$T/new/lop-send-normal-min.csv'"

# Interrupt lopfit at several points of the run; each time the directory is
# the old set or the new one, whole, and holds nothing else.
for sig in INT TERM; do
    for t in 0.05 0.2 0.4 0.7 60; do # 60: a hang guard, the run completes
        rm -rf "$T/d"
        cp -r "$T/old" "$T/d"
        timeout -s $sig $t "$F" --from-params "$T/big.csv" -o "$T/d" >/dev/null 2>&1
        rc=$?
        left=$(leftovers "$T/d")
        check "SIG$sig after $t s (exit $rc): no temporary file left ($left)" test -z "$left"
        if diff -r "$T/old" "$T/d" >/dev/null; then
            pass "SIG$sig after $t s: the old set, whole"
        elif diff -r "$T/new" "$T/d" >/dev/null; then
            pass "SIG$sig after $t s: the new set, whole"
        else
            fail "SIG$sig after $t s: the old set or the new one"
            diag "$(diff -rq "$T/old" "$T/d" | head -5)"
        fi
    done
done

# A set marked incomplete (as a crash between two renames leaves it) is
# refused by every reader that would mix it up.
rm -rf "$T/d"
"$F" --compare -o "$T/d" "$ROOT"/tests/data/plots/send-normal-rtt.csv \
    "$ROOT"/tests/data/plots/send-normal-os.csv >/dev/null 2>&1
printf '# lop: test\nfile\nparams.csv\nlop-send-normal-min.csv\n' >"$T/d/.lop-incomplete"
refuses_one_line "lopredict refuses a params.csv marked incomplete" 2 \
    "params.csv: an interrupted run left .* incomplete" \
    "$BIN/lopredict" --params "$T/d/params.csv" --series send-normal --p 2
refuses_one_line "lopfit --from-params refuses it too" 2 "an interrupted run left" \
    "$F" --from-params "$T/d/params.csv" -o "$T/e"
mkdir -p "$T/other" && ln -sf "$T/d/params.csv" "$T/other/link.csv"
refuses_one_line "... and through a symbolic link from another directory" 2 \
    "other/link.csv: an interrupted run left $T/d incomplete" \
    "$BIN/lopredict" --params "$T/other/link.csv" --series send-normal --p 2
"$BIN/lopredict" --params "$ROOT/tests/data/plots/params.csv" --series send-normal --p 2 \
    >/dev/null 2>&1
check "a directory without the marker reads as before" test $? -eq 0
if command -v gnuplot >/dev/null 2>&1; then
    sh "$ROOT/plots/plot.sh" "$T/d" "$T/fig" >"$T/plot.out" 2>&1
    check "plot.sh refuses it" grep -q "an interrupted run left it incomplete" "$T/plot.out"
fi
# The next complete run replaces the listed files and removes the marker.
"$F" --compare -o "$T/d" "$ROOT"/tests/data/plots/send-normal-rtt.csv \
    "$ROOT"/tests/data/plots/send-normal-os.csv >/dev/null 2>&1
check "a complete run over it removes the marker" test ! -e "$T/d/.lop-incomplete"

# A file of the set that exists and is not a regular file: refused before
# the work (params.csv) or before the first move (a table), the directory
# left as it was, no marker (33 files were once moved in around it).
rm -rf "$T/n" && mkdir -p "$T/n/params.csv"
refuses_one_line "lopfit -o: params.csv a directory, refused" 2 \
    "$T/n/params.csv: exists and is a directory" \
    "$F" --compare -o "$T/n" "$ROOT"/tests/data/plots/send-normal-rtt.csv \
    "$ROOT"/tests/data/plots/send-normal-os.csv
check "... the directory as it was" test "$(ls -A "$T/n")" = params.csv
rm -rf "$T/n" && mkdir "$T/n" && mkfifo "$T/n/lop-send-normal-min.csv"
refuses_one_line "lopfit --from-params: a table that is a FIFO, refused" 2 \
    "lop-send-normal-min.csv: exists and is a FIFO" \
    "$F" --from-params "$ROOT/tests/data/plots/params.csv" -o "$T/n"
check "... nothing moved in, no marker, the FIFO kept" \
    sh -c 'test "$(ls -A "$1")" = lop-send-normal-min.csv && test -p "$1/lop-send-normal-min.csv"' sh "$T/n"

# lopfit -o prints its report before it moves the files in: a report that
# cannot be written (a full disk, a closed stdout, a reader gone) fails the
# run with DIR as it was, and a DIR the run made is gone (the report once
# came after the move: exit 3 with DIR replaced by the new set).
# fit_to DIR HOW: lopfit -o DIR of two files, its stdout HOW: full, closed or
# pipe (a pipe whose reader is gone already); errors in $T/r.err
fit_to() {
    set -- "$1" "$2" "$F" -o "$1" "$ROOT"/tests/data/plots/send-normal-rtt.csv \
        "$ROOT"/tests/data/plots/send-normal-os.csv
    case $2 in
    full) shift 2 && "$@" >/dev/full 2>"$T/r.err" ;;
    closed) shift 2 && "$@" >&- 2>"$T/r.err" ;;
    pipe) shift 2 && perl -e 'pipe(R, W) or die; close R; open(STDOUT, ">&", \*W) or die;
                             exec @ARGV or die' "$@" 2>"$T/r.err" ;;
    esac
}
for how in full:3 closed:3 pipe:141; do # 141: killed by SIGPIPE, as the shell says
    rm -rf "$T/r" "$T/new-r" && mkdir "$T/r" && echo old >"$T/r/marker"
    fit_to "$T/r" "${how%:*}"
    rc=$?
    check "lopfit -o DIR, stdout ${how%:*}: exit ${how#*:} ($rc)" test $rc -eq "${how#*:}"
    check "... DIR as it was ($(ls -A "$T/r" | tr '\n' ' '))" \
        test "$(ls -A "$T/r")" = marker -a "$(cat "$T/r/marker")" = old
    [ $rc -eq 3 ] && check "... saying why in one line" test "$(wc -l <"$T/r.err")" -eq 1 -a \
        "$(grep -c '^lopfit: error writing standard output: ' "$T/r.err")" -eq 1
    fit_to "$T/new-r" "${how%:*}"
    check "... and a DIR it made is gone" test ! -e "$T/new-r"
done

# Exit status (README): a run that cannot write exits 3, not 2 (its input was fine).
: >"$T/plainfile"
refuses_one_line "lopfit -o below a regular file: the run failed, exit 3" 3 \
    "option --output: cannot create directory '$T/plainfile/sub'" \
    "$F" --from-params "$ROOT/tests/data/plots/params.csv" -o "$T/plainfile/sub"

# Files get the user's umask (mkstemp alone gives 0600).
rm -rf "$T/u"
(umask 022 && "$F" --from-params "$M" -o "$T/u" 2>/dev/null)
check "umask 022: files are 0644" test "$(stat -c %a "$T/u/lop-send-normal-min.csv")" = 644
rm -rf "$T/u"
(umask 077 && "$F" --from-params "$M" -o "$T/u" 2>/dev/null)
check "umask 077: files are 0600" test "$(stat -c %a "$T/u/lop-send-normal-min.csv")" = 600

# lopbench interrupted or killed through mpirun (on SIGINT Open MPI's mpirun
# sends the ranks SIGTERM; on SIGTERM, as a batch system's time limit sends
# it, it may SIGKILL them, which no process can clean up after: so rank 0
# writes only once the last task is done): no file of the unfinished run,
# nothing temporary.
if mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
    for sig_t in INT:2.5 INT:4.5 TERM:3.5; do # a run takes about 6 s here
        sig=${sig_t%:*} t=${sig_t#*:}
        rm -rf "$T/b"
        timeout -s $sig $t mpirun --oversubscribe -np 2 "$BIN/lopbench" --reps 200 \
            -o "$T/b" --quiet >/dev/null 2>&1
        rc=$?
        # the ranks' handlers finish after mpirun: wait until no rank of this
        # run is left (at most 30 s), not a fixed second (under ASan and load
        # one second was once too short, or the ranks were killed: see $left)
        i=0
        while [ $i -lt 300 ] && pgrep -f "lopbench --reps 200 -o $T/b" >/dev/null; do
            sleep 0.1
            i=$((i + 1))
        done
        left=$(leftovers "$T/b")
        n=$(ls "$T/b" 2>/dev/null | grep -c '\.csv$')
        check "lopbench SIG$sig after $t s (exit $rc): no temporary file left ($left)" \
            test -z "$left"
        # all 10 when it got past the commit, else none
        check "lopbench SIG$sig after $t s: none of its files or all ($n)" \
            test "$n" -eq 0 -o "$n" -eq 10 -a ! -e "$T/b/.lop-incomplete"
        [ -z "$left" ] || diag "left in $T/b: $(ls -A "$T/b" | tr '\n' ' ')"
        [ $sig = INT ] && check "... and with none, no directory either (the run made it)" \
            test "$n" -ne 0 -o ! -e "$T/b"
    done

    # The interposer below comes first in the library list; under SANITIZE=1
    # ASan would otherwise refuse to start.
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
    # Ctrl-C to mpirun while rank 0 writes: mpirun sends the ranks SIGTERM
    # and SIGKILL milliseconds later, which may overtake rank 0's handler
    # (it was seen still removing large raw files).  libholdstage.so holds
    # rank 0 after it staged its first file, so mpirun is signaled while the
    # stage certainly exists; with the signals let through the handler races
    # SIGKILL, with them held back SIGKILL always wins.  Either way DIR holds
    # no file of the run, at most its stage, and the next run into DIR
    # removes that.
    for hold in open blocked; do
        rm -rf "$T/h" "$T/held" && mkdir "$T/h"
        mpirun --oversubscribe -np 2 env LD_LIBRARY_PATH="$TESTBIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            LD_PRELOAD=libholdstage.so LOP_HOLD_STAGE="$T/held" LOP_HOLD_SIGNALS=$hold \
            "$BIN/lopbench" --scenario 1 --ops send --post normal --max-post 2 --reps 50 --raw \
            -q -o "$T/h" >/dev/null 2>&1 &
        mpid=$!
        i=0 # a bound, not a timing: the run takes a few seconds
        while [ $i -lt 3000 ] && [ ! -s "$T/held" ] && kill -0 $mpid 2>/dev/null; do
            sleep 0.1
            i=$((i + 1))
        done
        held=$(cat "$T/held" 2>/dev/null)
        check "Ctrl-C, signals $hold: rank 0 held in its stage (pid $held)" test -n "$held"
        kill -INT $mpid
        i=0
        while [ $i -lt 600 ] && { kill -0 $mpid || kill -0 ${held:-$mpid}; } 2>/dev/null; do
            sleep 0.1
            i=$((i + 1))
        done
        [ -z "$held" ] || kill -KILL $held 2>/dev/null # should mpirun not have
        wait $mpid
        left=$(ls -A "$T/h" | tr '\n' ' ')
        check "... no file of the run, at most its stage ($left)" \
            sh -c '! ls -A "$1" | grep -qv "^\.lop-stage\."' sh "$T/h"
        [ $hold = blocked ] && check "... SIGKILL left the stage" \
            sh -c 'ls -A "$1" | grep -q "^\.lop-stage\."' sh "$T/h"
        "$F" --from-params "$M" -o "$T/h" 2>/dev/null
        check "... the next run into DIR removes it" \
            sh -c 'test -s "$1/lop-send-normal-min.csv" && ! ls -A "$1" | grep -q "^\.lop-stage\."' sh "$T/h"
    done

    # Before it measures, rank 0 probes whether it can write where DIR goes
    # with a file of its own; a SIGTERM the moment that file exists (as the
    # interposer sends it) waits until it is removed.
    rm -rf "$T/p" && mkdir "$T/p"
    mpirun --oversubscribe -np 2 env LD_LIBRARY_PATH="$TESTBIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        LD_PRELOAD=libholdstage.so LOP_PROBE_SIGTERM=1 "$BIN/lopbench" --scenario 1 --ops send \
        --post normal --max-post 2 --reps 5 -q -o "$T/p/sub" >/dev/null 2>&1
    check "SIGTERM while lopbench probes DIR's parent (exit $?): no probe file left ($(ls -A "$T/p"))" \
        test -z "$(ls -A "$T/p")"
fi
done_testing
