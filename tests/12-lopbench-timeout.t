#!/bin/sh
# 12-lopbench-timeout.t - no wait is endless: with rank 1 stopped (SIGSTOP)
# part-way, every rank 0 wait gives up after --timeout, names what it waited
# for, and the job ends non-zero.  Poll loops have their own deadlines (the
# scenarios, the p2p walker); blocking MPI calls (MPI_Barrier, the mpi
# executor) are caught by the watchdog.
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
B=$BIN/lopbench

# stopper: rank 1 (any MPI's rank variable) stops its lopbench 1 s after
# rank 0's first line in $STOP_AFTER (the job's output: start-up is over;
# under load and ASan a fixed second once stopped it inside MPI_Init, and
# rank 0 waited there: now the watchdog's LOP_WATCHDOG_INIT_S), or after
# 60 s without one; the others run it as they are.
cat >"$T/stopper" <<'EOS'
#!/bin/sh
r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-0}}}
[ "$r" = 1 ] || exec "$@"
"$@" & pid=$!
echo $pid >"$STOPPED_PID"
i=0
while [ $i -lt 600 ] && ! grep -q '^lopbench' "$STOP_AFTER" 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
done
sleep 1
kill -STOP $pid
wait $pid
EOS
chmod +x "$T/stopper"

# stalls NAME PATTERN ARGS...: the job ends non-zero by itself with rank 0's
# one line matching PATTERN.
stalls() {
    _name=$1 _pattern=$2
    shift 2
    export STOPPED_PID="$T/pid" STOP_AFTER="$T/out"
    rm -f "$STOPPED_PID"
    run_mpi 2 "$T/stopper" "$B" --timeout 2 "$@" -o "$T/o" >"$T/out" 2>&1
    _rc=$?
    [ -s "$STOPPED_PID" ] && kill -KILL "$(cat "$STOPPED_PID")" 2>/dev/null
    if [ $_rc -ne 0 ] && [ $_rc -ne 124 ]; then
        pass "$_name: the job ends by itself, non-zero ($_rc)"
    else
        fail "$_name: the job ends by itself, non-zero ($_rc)"
    fi
    if [ "$(grep -c "^lopbench: rank 0: $_pattern" "$T/out")" -eq 1 ]; then
        pass "$_name: rank 0 says what it waited for"
    else
        fail "$_name: rank 0 says what it waited for"
        diag "$(grep '^lopbench' "$T/out")"
    fi
}

# Where rank 1 stops decides which guard speaks: a polled wait (barrier,
# completion) or the blocking MPI_Recv of the reference ping-pong.
stalls "scenarios" "\(timed out after 2 s waiting for .*(repetition [0-9]* of\|no progress for 2 s in \)" \
    --transport mpi --scenario 1,2 --reps 100000
# The message names the rank waited for and its node.
stalls "p2p barrier" "timed out after 2 s waiting for message [0-9]* from rank 1 on $(hostname) .*; at op [0-9]* of rank 0's schedule" \
    --barrier --executor p2p --alg diss --reps 10000000
# --pairs: rank 1 stops in a measurement (an MPI_Issend, the pair's barrier
# before each sample, a scenario's repetition) or, on a slow start, in set-up.
stalls "pairs" "\(timed out after 2 s waiting for .*MPI_Issend\|timed out after 2 s waiting for a barrier with rank [01] on $(hostname)\|timed out after 2 s waiting for .*(repetition [0-9]* of\|no progress for 2 s in \|timed out after [0-9]* s waiting for the other ranks at the end of pairs\)" \
    --pairs --transport mpi --reps 100000 --idle-us 0
# --pairs: rank 1 stopped at the end of a round, after every sample (its
# first MPI_Igather: libstopat.so): no measuring wait guards that point, and
# under load a random stop once landed there and held rank 0 for ever.
# (The interposer comes first in the library list: under SANITIZE=1 ASan
# must be told that is fine, as in 44-sendbuf.t.)
run_mpi 2 env LD_LIBRARY_PATH="$TESTBIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    LD_PRELOAD=libstopat.so LOP_STOP_AT=MPI_Igather "$B" --timeout 2 --pairs --transport mpi \
    --reps 3 --warmup 1 -o "$T/o" >"$T/out" 2>&1
rc=$?
check "pairs, rank 1 stopped at a round's end: the job ends by itself, non-zero ($rc)" \
    test $rc -ne 0 -a $rc -ne 124
check "... rank 0 says it waited for the others at the end of the round" \
    grep -q '^lopbench: rank 0: timed out after [0-9]* s waiting for the other ranks at the end of pairs: O_ii of every rank' "$T/out"
grep -q '^lopbench: rank 0: timed out' "$T/out" || diag "$(grep -v '^lopbench: \[' "$T/out" | tail -n 8)"
check "... no output directory" test ! -e "$T/o"
# A run that succeeded, then hangs in MPI_Finalize (rank 1 stopped before
# it; MPICH over UCX across nodes did so by itself): the watchdog ends rank 0
# with the run's own exit status and says the output is written, after
# --timeout but at most 10 s.
rm -rf "$T/o"
run_mpi 2 env LD_LIBRARY_PATH="$TESTBIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    LD_PRELOAD=libstopat.so LOP_STOP_AT=MPI_Finalize "$B" --timeout 30 --transport mpi \
    --scenario 2 --ops send --post normal --reps 3 --warmup 1 -o "$T/o" >"$T/out" 2>&1
rc=$?
check "a run held in MPI_Finalize ends ($rc) after 10 s, not --timeout 30, rank 0 saying its run succeeded" \
    grep -q '^lopbench: rank 0: no progress for 10 s in MPI_Finalize, after the run succeeded (its output is written; exit status 0)' "$T/out"
grep -q 'MPI_Finalize' "$T/out" || diag "$(grep -v '^lopbench: \[' "$T/out" | tail -n 8)"
check "... and its output is whole" rows_ok "$T/o/send-normal-rtt.csv" 1 3
stalls "MPI_Barrier (watchdog)" "no progress for 2 s in --barrier, executor mpi on 2 ranks" \
    --barrier --executor mpi --reps 10000000
done_testing
