#!/bin/sh
# 75-slurm.t - lop under Slurm: the Slurm cluster of scripts/slurm-cluster.sh
# on two virtual nodes (up, refusals, down leaving nothing), lopbench started
# by srun --mpi=pmix (Open MPI), srun --mpi=pmi2 (MPICH) and mpirun inside
# salloc, with '# slurm:' in its files; scripts/lop.sbatch end to end with
# both MPIs (a complete out/slurm-<jobid>/); its refusals; a rank killed and
# a node's slurmd killed mid-job: one line naming the node, no directory.
# Under the suite's machine-wide lock (lib.sh slurm_start); skipped where
# Slurm is not installed.
. "$(dirname "$0")/lib.sh"
t0=$(date +%s.%N)
slurm_start 2
diag "slurm-cluster.sh up, 2 nodes: $(echo "$(date +%s.%N) - $t0" | bc) s"
tag=$(cat "$C/tag")
S=$C/slurm
HOSTS="2: node0 (1 rank), node1 (1 rank)"
sinfo_states() { "$A" node0 "sinfo -h -N -o '%N %T'" | tr '\n' ' '; }
check "sinfo: node0 and node1 idle in partition lop ($(sinfo_states))" \
    test "$("$A" node0 "sinfo -h -N -o '%N %P %T'" | tr '\n' ' ')" = "node0 lop* idle node1 lop* idle "
check "the daemons run on the nodes: slurmctld and munged on node0, a slurmd on each" sh -c \
    "'$A' node0 'pgrep -x slurmctld && pgrep -x munged' >/dev/null &&
     test \"\$(ip netns pids $tag-0 | xargs -r ps -o comm= -p | grep -cx slurmd)\" -eq 1 &&
     test \"\$(ip netns pids $tag-1 | xargs -r ps -o comm= -p | grep -cx slurmd)\" -eq 1"
_d=$T # refuses_one_line's scratch files
{ refuses_one_line "up on a DIR whose cluster is up: refused, exit 1" 1 \
    "$C holds a cluster that is up ($tag, namespaces $tag-\*)" "$ROOT/scripts/slurm-cluster.sh" up "$C" 2; } 9>&-
# A start that fails takes down what it made: a slurmd that does not start.
mkdir "$T/fake" && printf '#!/bin/sh\nexit 1\n' >"$T/fake/slurmd" && chmod +x "$T/fake/slurmd"
before=$(ip netns list | grep -c '^lops')
path=$PATH PATH=$T/fake:$PATH
{ refuses_one_line "a slurmd that does not start: one line naming the node, exit 1" 1 \
    "node0: slurmd did not start" "$ROOT/scripts/slurm-cluster.sh" up "$T/bad" 2; } 9>&-
PATH=$path
check "... and nothing of it left (no namespace, no state)" sh -c \
    "test \"\$(ip netns list | grep -c '^lops')\" -eq $before && test ! -e '$T/bad/tag' && test ! -e '$T/bad/slurm'"

# ---- lopbench launched by Slurm
lb=$(shquote "$BIN/lopbench")
run() { # NAME LAUNCH [LOPBENCH]: lopbench's scenarios on both nodes into $T/NAME
    "$A" node0 "timeout 120 $2 ${3:-$lb} --reps 3 --warmup 1 --max-post 2 -o $T/$1" >"$T/$1.out" 2>&1
}
slurm_ok() { # DIR: every file of the run ('# hosts:') says the job, its nodes and partition
    _job=$(meta "$(grep -l '^# hosts:' "$1"/*.csv | head -n 1)" slurm | sed -n 's/^job \([0-9]*\),.*/\1/p')
    [ -n "$_job" ] && for _f in $(grep -l '^# hosts:' "$1"/*.csv); do
        [ "$(meta "$_f" slurm)" = "job $_job, nodes node[0-1], partition lop" ] ||
            { diag "$_f: '# slurm: $(meta "$_f" slurm)'"; return 1; }
    done
}
run_ok() { scenarios_ok "$@" && slurm_ok "$1"; } # DIR RANKS REPS MAX_POST HOSTS
run pmix "srun -N 2 --mpi=pmix"
check "Open MPI, srun --mpi=pmix: exit 0, every file whole, one rank a node" scenarios_ok "$T/pmix" 2 3 2 "$HOSTS"
[ -d "$T/pmix" ] || diag "$(tail -n 5 "$T/pmix.out")"
check "... '# slurm: job <id>, nodes node[0-1], partition lop' in every file" slurm_ok "$T/pmix"
run salloc "salloc -N 2 mpirun.openmpi --map-by node -np 2"
check "Open MPI, mpirun inside salloc: every file whole, '# slurm:' in each" run_ok "$T/salloc" 2 3 2 "$HOSTS"
[ -d "$T/salloc" ] || diag "$(tail -n 5 "$T/salloc.out")"
MPICH_BIN=
if ! command -v mpicc.mpich >/dev/null 2>&1; then
    skip "MPICH not installed: no srun --mpi=pmi2 run"
elif ! mpich_build "$T/mpich-build.log"; then
    fail "MPICH build of lopbench" && diag "$(tail -n 5 "$T/mpich-build.log")"
else
    MPICH_BIN=$ROOT/$MPICH_OUT/bin
    run pmi2 "srun -N 2 --mpi=pmi2" "$(shquote "$MPICH_BIN/lopbench")"
    check "MPICH, srun --mpi=pmi2: every file whole, '# slurm:' in each" run_ok "$T/pmi2" 2 3 2 "$HOSTS"
    [ -d "$T/pmi2" ] || diag "$(tail -n 5 "$T/pmi2.out")"
fi

# ---- scripts/lop.sbatch
# job LOG [SBATCH OPTIONS]: the job script submitted on node0 from $T (its
# default out/slurm-<jobid> there, not in the checkout: a fresh cluster's job
# ids start again at 1), the checkout in LOP_ROOT; waited for (bounded):
# $JOB its id, $JOB_STATE how Slurm ended it.
export LOP_ROOT="$ROOT"
job() {
    _log=$1
    shift
    JOB=$("$A" node0 "cd $T && sbatch --parsable -o $_log $* $(shquote "$ROOT/scripts/lop.sbatch")" 2>"$T/sbatch.err")
    JOB_STATE=
    [ -n "$JOB" ] || { diag "sbatch: $(cat "$T/sbatch.err")"; return 1; }
    _i=0
    while [ $_i -lt 1500 ]; do
        JOB_STATE=$("$A" node0 "scontrol show job $JOB" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
        case $JOB_STATE in PENDING | RUNNING | COMPLETING | CONFIGURING | '') ;;
        *) echo "$JOB $JOB_STATE" >"$_log.state"; return 0 ;; esac
        sleep 0.1
        _i=$((_i + 1))
    done
    "$A" node0 "scancel $JOB"
    return 1
}
# job_wait LOG PID: the same for a job submitted in the background (job LOG ... &)
job_wait() { wait "$2"; read -r JOB JOB_STATE <"$1.state" || :; }
job_ok() { # NAME DIR REPS: a complete job directory
    scenarios_ok "$2/data" 2 "$3" 8 "$HOSTS" && slurm_ok "$2/data" &&
        for _f in summary.txt fidelity.txt fidelity.csv data/params.csv data/pairs.csv \
            data/placement.csv data/barrier.csv data/measured.csv best.txt hybrid.txt \
            $(command -v gnuplot >/dev/null && echo fidelity.png); do
            [ -s "$2/$_f" ] || { diag "$1: no $_f"; return 1; }
        done || return 1
    [ "$1" = mpich ] || ! command -v gnuplot >/dev/null 2>&1 || [ -s "$2/figures/rtt.png" ]
}
t0=$(date +%s.%N)
job "$T/job1.log" -N 2 --export=ALL,LOP_REPS=10
diag "lop.sbatch, Open MPI, 2 nodes, LOP_REPS=10: $(echo "$(date +%s.%N) - $t0" | bc) s (job $JOB)"
check "lop.sbatch, Open MPI: the job completes ($JOB_STATE)" test "$JOB_STATE" = COMPLETED
check "... the log says the launcher: srun --mpi=pmix" grep -q '^lop.sbatch: slurm: job [0-9]*, 2 nodes (node\[0-1\]), one rank each, started by srun --mpi=pmix' "$T/job1.log"
check "... out/slurm-$JOB/ complete: scenarios, fits, pairs, barriers, fidelity, figures; '# slurm:'" \
    job_ok openmpi "$T/out/slurm-$JOB" 10
check "... and no out/slurm-$JOB.partial" test ! -e "$T/out/slurm-$JOB.partial"
[ "$JOB_STATE" = COMPLETED ] || diag "$(tail -n 8 "$T/job1.log")"
if [ -n "$MPICH_BIN" ]; then
    # The figures are MPI's business no more than the fits: Open MPI's job made them.
    t0=$(date +%s.%N)
    job "$T/job2.log" -N 2 --export=ALL,LOP_REPS=10,LOP_MPI=mpich,LOP_FIGURES=no,LOP_OUT=$T/mpich
    diag "lop.sbatch, MPICH, 2 nodes, LOP_REPS=10, no figures: $(echo "$(date +%s.%N) - $t0" | bc) s (job $JOB)"
    check "lop.sbatch, MPICH: the job completes ($JOB_STATE), started by srun --mpi=pmi2" sh -c \
        "test '$JOB_STATE' = COMPLETED && grep -q 'started by srun --mpi=pmi2' '$T/job2.log'"
    check "... LOP_OUT complete but for the figures, '# slurm:' in the data" job_ok mpich "$T/mpich" 10
    check "... no figures/ with LOP_FIGURES=no" test ! -e "$T/mpich/figures"
    [ "$JOB_STATE" = COMPLETED ] || diag "$(tail -n 8 "$T/job2.log")"
else
    skip "MPICH not built: no MPICH job"
fi

# refused LOG PATTERN NAME: the job failed with one line of lop.sbatch
# matching PATTERN, and wrote nothing.
refused() {
    check "$3: one line, the job fails ($JOB_STATE), no directory" sh -c \
        "test '$JOB_STATE' = FAILED && test \"\$(grep -c '^lop.sbatch:' '$1')\" -eq 1 &&
         grep -q '^lop.sbatch: .*$2' '$1' && test ! -e '$T/r' && test ! -e '$T/r.partial'"
    grep -q "^lop.sbatch: .*$2" "$1" || diag "$(cat "$1")"
}
job "$T/one.log" -N 1 --export=ALL,LOP_OUT=$T/r
refused "$T/one.log" "job $JOB has 1 node (node0): lop needs at least 2" "one node"
job "$T/bogus.log" -N 2 --export=ALL,LOP_MPI=bogus,LOP_OUT=$T/r
refused "$T/bogus.log" "LOP_MPI=bogus: expected openmpi or mpich" "LOP_MPI=bogus"
mkdir "$T/nopmix" && printf '#!/bin/sh\n[ "$1" = --mpi=list ] && { printf "MPI plugin types are...\\n\\tnone\\n"; exit 0; }\nexec %s "$@"\n' \
    "$(command -v srun)" >"$T/nopmix/srun" && chmod +x "$T/nopmix/srun"
job "$T/nopmix.log" -N 2 "--export=ALL,PATH=$T/nopmix:$PATH,LOP_LAUNCHER=srun,LOP_OUT=$T/r"
refused "$T/nopmix.log" "launcher srun: this Slurm has no mpi/pmix plugin for MPI=openmpi" "srun asked for, no pmix plugin"

# ---- faults mid-job: the job ends, one line names node1, no directory
# on_node1 PROG: its pid on node1, waited for (at most 20 s)
on_node1() {
    _i=0
    while [ $_i -lt 200 ]; do
        for _p in $(ip netns pids "$tag-1"); do [ "$(cat /proc/$_p/comm 2>/dev/null)" = "$1" ] && echo "$_p" && return; done
        sleep 0.1
        _i=$((_i + 1))
    done
}
fault() { # NAME WHAT PATTERN STATE: WHAT (a shell command) once lopbench runs on node1
    t0=$(date +%s.%N)
    job "$T/$1.log" -N 2 --export=ALL,LOP_REPS=1000000,LOP_OUT=$T/f &
    _lb=$(on_node1 lopbench)
    [ -n "$_lb" ] && sleep 0.5 && eval "$2"
    job_wait "$T/$1.log" $!
    diag "$1: the job ended $(echo "$(date +%s.%N) - $t0" | bc) s after its submission"
    check "$1: one line naming node1 ($(grep '^lop.sbatch:' "$T/$1.log" | tail -n 1))" sh -c \
        "test \"\$(grep -c '^lop.sbatch: .*node1' '$T/$1.log')\" -eq 1 && grep -q '^lop.sbatch: .*$3' '$T/$1.log'"
    check "... the job ended ($JOB_STATE: $4), no directory, nothing partial" sh -c \
        "test '$JOB_STATE' = '$4' && test ! -e '$T/f' && test ! -e '$T/f.partial'"
}
fault rank-killed 'kill -KILL $_lb' "bench: node1 lost mid-job: rank 1 Killed (srun)" FAILED
fault slurmd-killed 'kill -KILL $(cat "$S/node1/slurmd.pid")' \
    "stopped by a signal: node1 lost mid-job (down in sinfo)" NODE_FAIL

# ---- down leaves nothing
t0=$(date +%s.%N)
"$ROOT/scripts/slurm-cluster.sh" down "$C"
diag "slurm-cluster.sh down: $(echo "$(date +%s.%N) - $t0" | bc) s"
check "down: no namespace of the cluster left" sh -c "! ip netns list | grep -q '^$tag-'"
none_running() { ! pgrep -f "$S/" >/dev/null; } # zombies have no command line
check "... no slurmctld, slurmd or munged of it running" none_running
check "... its state gone (DIR/slurm, DIR/tag)" sh -c "test ! -e '$S' && test ! -e '$C/tag'"
done_testing
