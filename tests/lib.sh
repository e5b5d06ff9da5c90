# lib.sh - shared helpers for the TAP shell tests in tests/*.t.
#   . "$(dirname "$0")/lib.sh"
#   check NAME COMMAND...          one test point: passes when COMMAND succeeds
#   pass NAME / fail NAME          a test point decided by the script
#   run_mpi N ARGS...              mpirun with N local ranks, any MPI, as root too
#                                  ($MPIRUN, default mpirun)
#   sendbuf_clean NAME N PROG ARGS...  PROG on N ranks under tests/bin/libsendbuf.so:
#                                  exit 0, no send buffer changed while pending
#   refuses_one_line NAME CODE PATTERN PROG ARGS...  bad input: exit CODE, one line
#   or_words LIST                  the names of a list spelled "a, b or c"
#   lopfit_models, lopfit_family QUANTITY FILE  lopfit's models, all or a
#                                  quantity's, as its --help and its refusals say
#   rows_ok FILE P REPS, meta FILE KEY, meta_ok FILE SERIES QUANTITY RANKS
#                                  lopbench's scenario files; scenarios_ok DIR
#                                  RANKS REPS MAX_POST HOSTS all of a run's
#   pairs_ok FILE P DIAG SAMPLED REPS, placement_ok FILE P
#                                  lopbench --pairs files
#   tmpdir                         sets $_d to a fresh directory removed at exit
#                                  (call it plainly, not as $(tmpdir): a subshell
#                                  would run the exit trap at once)
#   cluster_start N [shared]       the virtual cluster (scripts/cluster.sh):
#                                  $T a work directory, $A its agent, $C its state
#   slurm_start N                  the same with Slurm (scripts/slurm-cluster.sh)
#   barrier_checks NAME CMD        on it, lopbench --barrier --check of every
#                                  algorithm and the hybrid
set -u
ROOT=${LOP_ROOT:-$(cd "$(dirname "$0")/.." && pwd)} # LOP_ROOT: for scripts outside tests/
BIN=$ROOT/bin
export LANG=C LC_ALL=C
# Quoted: the sanitizers' option parser splits at spaces, and the checkout's
# path may have one.
export LSAN_OPTIONS="suppressions='$ROOT/tests/lsan.supp':print_suppressions=0"
# Under SANITIZE=1, leaks inside the MPI stack (libpmix's vasprintf) are
# suppressed only when the whole stack is unwound: fast unwinding stops at
# frames without a frame pointer and leaves "<unknown module>".
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
# ... and LeakSanitizer's check (bench/main.c, before MPI_Finalize) faults
# ("Tracer caught signal 11") in a process whose UCX installed its memory
# event hooks (Open MPI's osc ucx): not under the sanitizers.
[ -z "${LOP_SANITIZE:-}" ] || export UCX_MEM_EVENTS=no
. "$ROOT/tests/mpi-env.sh"

_tap_n=0
_tap_failed=0
pass() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
fail() { _tap_n=$((_tap_n + 1)); _tap_failed=$((_tap_failed + 1)); echo "not ok $_tap_n - $*"; }
# check NAME COMMAND...: a test point that passes when COMMAND succeeds
check() { _name=$1; shift; if "$@"; then pass "$_name"; else fail "$_name"; fi; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }
# On stderr, as Test::More's diag: prove shows it without -v (a CI log then says why).
diag() { printf '%s\n' "$@" | sed 's/^/# /' >&2; }
done_testing() { echo "1..$_tap_n"; [ "$_tap_failed" -eq 0 ]; }

# shquote ARG...: the arguments quoted for sh, on one line (no process
# spawned: it runs under qemu's emulation too, where each one is costly)
shquote() {
    for _a in "$@"; do
        _q=
        while :; do
            case $_a in
            *\'*) _q="$_q${_a%%\'*}'\\''" _a=${_a#*\'} ;;
            *) break ;;
            esac
        done
        printf "'%s%s' " "$_q" "$_a"
    done
}

MPIRUN=${MPIRUN:-mpirun}
TESTBIN=${TESTBIN:-$ROOT/tests/bin}
run_mpi() {
    _np=$1; shift
    if $MPIRUN --version 2>/dev/null | grep -q 'Open MPI'; then
        timeout 300 $MPIRUN --oversubscribe -np "$_np" "$@"
    else
        timeout 300 $MPIRUN -np "$_np" "$@"
    fi
}

# The interposer is preloaded by name, found through LD_LIBRARY_PATH:
# LD_PRELOAD splits at spaces, and the checkout's path may have one.
#
# sendbuf_clean NAME NP PROG ARGS...: PROG on NP ranks with the PMPI interposer
# $TESTBIN/libsendbuf.so (tests/interpose/sendbuf.c) preloaded: it must exit 0
# and every rank must report "N sends checked, 0 changed" with nothing left
# unchecked, N > 0 on some rank.  Needs tmpdir.
sendbuf_clean() {
    _name=$1 _np=$2
    shift 2
    run_mpi "$_np" env LD_LIBRARY_PATH="$TESTBIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        LD_PRELOAD=libsendbuf.so "$@" >"$_d/sendbuf.out" 2>&1
    _rc=$?
    # rank:checked:changed per rank; a line with unchecked sends does not match
    _counts=$(sed -n 's/^sendbuf: rank \([0-9]*\): \([0-9]*\) sends checked, \([0-9]*\) changed$/\1:\2:\3/p' \
        "$_d/sendbuf.out" | sort -n | tr '\n' ' ')
    if [ $_rc -eq 0 ] && [ "$(echo $_counts | wc -w)" -eq "$_np" ] &&
        ! echo $_counts | tr ' ' '\n' | grep -qv ':0$' && echo "$_counts" | grep -q ':[1-9][0-9]*:'
    then
        pass "$_name: no send buffer changed while pending (rank:checked:changed $_counts)"
    else
        fail "$_name: no send buffer changed while pending (exit $_rc)"
        diag "$(grep -v '^ ' "$_d/sendbuf.out" | tail -n 20)"
    fi
}

# sendbuf_catches NAME: the interposer is not blind: $TESTBIN/broken_sends
# changes three of its four pending send buffers on rank 0 (and rank 1 sends
# nothing), so the counts must say exactly that.  Needs tmpdir.
sendbuf_catches() {
    run_mpi 2 env LD_LIBRARY_PATH="$TESTBIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        LD_PRELOAD=libsendbuf.so "$TESTBIN/broken_sends" \
        >"$_d/broken.out" 2>&1
    _rc=$?
    if [ $_rc -eq 0 ] && grep -qx 'sendbuf: rank 0: 4 sends checked, 3 changed' "$_d/broken.out" &&
        grep -qx 'sendbuf: rank 1: 0 sends checked, 0 changed' "$_d/broken.out"
    then
        pass "$1: the interposer catches 3 changed buffers in broken_sends"
    else
        fail "$1: the interposer catches 3 changed buffers in broken_sends (exit $_rc)"
        diag "$(cat "$_d/broken.out")"
    fi
}

# mpi_refuses NAME PATTERN NP PROG ARGS...: PROG must stop on every rank by
# itself with status 1 or 2, print exactly one "prog:" line matching PATTERN,
# and create no $_d/o.  Each rank runs under a shell that records its own exit
# status and exits 0, so mpirun neither aborts the job nor kills a slow rank:
# every rank has to stop by itself (a hang shows as run_mpi's timeout, 124).
mpi_refuses() {
    _name=$1 _pattern=$2 _np=$3 _prog=$4
    shift 3
    _out=$_d/out
    export RC_DIR="$_d/rc"
    rm -rf "$_d/o" "$RC_DIR"
    mkdir "$RC_DIR"
    run_mpi "$_np" sh -c '"$0" "$@"; echo $? >"$RC_DIR/$$"' "$@" >"$_out" 2>&1
    _rc=$?
    _codes=$(cat "$RC_DIR"/* 2>/dev/null | sort -u | tr '\n' ' ')
    # 2 = input refused, 3 = cannot run (README "Exit status"); anything else
    # (1, a check's "no"; a sanitizer's 23) is wrong
    if [ $_rc -eq 0 ] && [ "$(ls "$RC_DIR" | wc -l)" -eq "$_np" ] && ! grep -qvx '[23]' "$RC_DIR"/*
    then
        pass "$_name: all $_np ranks exit 2 or 3 by themselves ($_codes)"
    else
        fail "$_name: all $_np ranks exit 2 or 3 by themselves (mpirun $_rc, ranks: $_codes)"
    fi
    _tool=$(basename "$_prog")
    _lines=$(grep -c "^$_tool:" "$_out")
    if [ "$_lines" -eq 1 ] && grep -q "^$_tool: .*$_pattern" "$_out"; then
        pass "$_name: one line naming the problem"
    else
        fail "$_name: one line naming the problem"
        diag "$(cat "$_out")"
    fi
    check "$_name: no output created" test ! -e "$_d/o"
}

# refuses_one_line NAME CODE PATTERN PROG ARGS...: PROG (no MPI) must exit
# with CODE, print nothing on stdout and exactly one line "prog: ...PATTERN"
# on stderr.  Needs tmpdir.
refuses_one_line() {
    _name=$1 _code=$2 _pattern=$3 _tool=$(basename "$4")
    shift 3
    "$@" >"$_d/refused.out" 2>"$_d/refused.err"
    _rc=$?
    if [ $_rc -eq "$_code" ] && [ ! -s "$_d/refused.out" ] &&
        [ "$(wc -l <"$_d/refused.err")" -eq 1 ] && grep -q "^$_tool: .*$_pattern" "$_d/refused.err"
    then
        pass "$_name"
    else
        fail "$_name (exit $_rc)"
        diag "$(cat "$_d/refused.err")"
    fi
}

# ---- lists as the tools spell them: "a, b or c"
# or_words LIST: the names of LIST, separated by spaces
or_words() { printf '%s\n' "$1" | sed 's/\(.*\) or /\1, /; s/, / /g'; }
# lopfit_models: the models lopfit's --help names ("MODEL (a, b or c)")
lopfit_models() { "$BIN/lopfit" --help | sed -n 's/.* or MODEL (\(.*\)) for every file.*/\1/p'; }
# lopfit_family QUANTITY FILE: the models lopfit names for QUANTITY, as its
# refusal of another model lists them ("takes model a, b or c, not ov"),
# checked against what it does: of the models --help names, --model
# QUANTITY=MODEL on FILE (of QUANTITY) is taken (fitted, or refused for too
# few points) for each one listed and refused as not QUANTITY's for the
# others.  A mismatch, no refusal, two lists or an exit other than 0 and 2:
# nothing, status 1.  Needs tmpdir.
lopfit_family() {
    _taken= _listed=
    for _m in $(or_words "$(lopfit_models)"); do
        "$BIN/lopfit" --stat min --csv --model "$1=$_m" "$2" >/dev/null 2>"$_d/family.err"
        case $? in
        0) _taken="$_taken $_m" ;;
        2) _l=$(sed -n "s/.*quantity '$1' takes model \(.*\), not $_m (--model)\$/\1/p" "$_d/family.err")
           if [ -z "$_l" ]; then _taken="$_taken $_m"
           elif [ -z "$_listed" ] || [ "$_l" = "$_listed" ]; then _listed=$_l
           else return 1 # two refusals, two lists
           fi ;;
        *) return 1 ;;
        esac
    done
    [ -n "$_listed" ] && [ "$(or_words "$_listed" | tr ' ' '\n' | sort)" = \
        "$(printf '%s\n' $_taken | sort)" ] && printf '%s\n' "$_listed"
}

# ---- lopbench's scenario files (10-lopbench-mpi.t, 50-verbs-vm.t)
# rows_ok FILE P REPS [FIRST]: header, P rows p = FIRST..FIRST + P - 1 in
# order (FIRST 1; scenario 3's ring has its one row at p = the ranks), n =
# REPS, every statistic finite and positive (stddev >= 0), min <= median <=
# p99 <= max, min <= avg <= max.
rows_ok() {
    awk -F, -v want="$2" -v reps="$3" -v first="${4:-1}" '
        /^#/ { next }
        !hdr { hdr = 1; if ($0 != "p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us") bad = 1; next }
        {
            rows++
            if ($1 != first + rows - 1 || $2 != reps) bad = 1
            for (i = 3; i <= 7; i++) if (!($i + 0 > 0) || $i + 0 > 1e9) bad = 1
            if (!($8 + 0 >= 0) || $8 + 0 > 1e9) bad = 1
            if ($3 + 0 > $5 + 0 || $5 + 0 > $6 + 0 || $6 + 0 > $7 + 0) bad = 1
            if ($3 + 0 > $4 + 0 || $4 + 0 > $7 + 0) bad = 1
            if (bad && !shown) { print "# rows_ok: " FILENAME ": bad row " $0 > "/dev/stderr"; shown = 1 }
        }
        END { exit !(hdr && !bad && rows == want) }' "$1"
}
# meta FILE KEY: the value of "# KEY: value"
# The cells of column NAME of a CSV (comment lines skipped), one per line,
# prefixed by the row's first cell and a comma: csvcol FILE NAME.
csvcol() {
    awk -F, -v name="$2" '/^#/ { next } !c { for (i = 1; i <= NF; i++) if ($i == name) c = i; if (!c) exit 1; next } { print $1 "," $c }' "$1"
}
# algs [COLUMN=VALUE ...]: the algorithms of lopredict --list-algs --csv
# whose COLUMNs have these VALUEs (schedule=yes, takes_n=yes), one name a
# line: the tests take every count and list of algorithms from the table.
algs() {
    "$BIN/lopredict" --list-algs --csv | awk -F, -v want="$*" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(want, w, " "); next }
        { for (i = 1; i <= n; i++) { split(w[i], kv, "="); if ($col[kv[1]] != kv[2]) next }
          print $1 }'
}
# A params.csv with covariance (README.md "Data formats": its appended
# columns): series rdmaw-inline, stat min, RTT 20 us and o_s 1 us as linear
# fits l1 + 0 p over p = 1..63 with n = 1000 and the variances of l1 given:
# cov_set FILE VAR_RTT VAR_OS.
cov_set() { # FILE VAR_RTT VAR_OS
    {
        printf 'file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2'
        printf ',se1,se2,se3,se4,se5,se6'
        for i in 1 2 3 4 5 6; do for j in 1 2 3 4 5 6; do
            [ "$j" -ge "$i" ] && printf ',cov%d%d' "$i" "$j"; done; done
        printf ',weak,hint,criterion,k,aicc,bic,margin\n'
        for q in "rtt 20 $2" "os 1 $3"; do
            set -- $q
            printf 'x,rdmaw-inline,%s,min,linear,1000,1,63,%s,0,,,,,1,1,1,,,,,,,%s' "$1" "$2" "$3"
            printf ',0%.0s' $(seq 20)
            printf ',,none,forced,3,,,\n'
        done
    } >"$1"
}
meta() { sed -n "s/^# $2: //p" "$1" | head -n 1; }
# meta_ok FILE SERIES QUANTITY RANKS: the metadata lopfit and people rely on,
# for a run over $TRANSPORT (default mpi) with $REPS repetitions
meta_ok() { # FILE SERIES QUANTITY RANKS [HOSTS: default this host alone]
    [ "$(meta "$1" series)" = "$2" ] && [ "$(meta "$1" quantity)" = "$3" ] &&
        [ "$(meta "$1" ranks)" = "$4" ] && [ "$(meta "$1" transport)" = "${TRANSPORT:-mpi}" ] &&
        [ "$(meta "$1" repetitions)" = "$REPS" ] && [ "$(meta "$1" unit)" = us ] &&
        [ -n "$(meta "$1" device)" ] && [ -n "$(meta "$1" date)" ] &&
        [ -n "$(meta "$1" host)" ] && [ -n "$(meta "$1" lopbench)" ] &&
        [ "$(meta "$1" hosts)" = "${5:-1: $(meta "$1" host) ($4 ranks)}" ] &&
        meta "$1" timer | grep -q 'MHz overhead .* ticks' &&
        meta "$1" oversubscribed | grep -Eq '^(yes|no)$'
}

tmpdir() {
    _d=$(mktemp -d /tmp/lop-test.XXXXXX)
    trap 'rm -rf "$_d"' EXIT
}

PAIRS_HEADER="i,j,o_us,L_us,n,o_min_us,o_avg_us,o_median_us,L_min_us,L_avg_us,L_median_us,rtt_min_us,rtt_avg_us,rtt_median_us,src_i,src_j"

# ---- lopbench --pairs files (13-lopbench-pairs.t, 50-verbs-vm.t)
# pairs_ok FILE P DIAG SAMPLED REPS: the header; every ordered pair i != j
# once (and i = j when DIAG is 1); n = REPS; o_us, L_us finite and >= 0; every
# statistic finite (L empty on the diagonal); src_i, src_j the row's own
# pair unless SAMPLED.
pairs_ok() {
    awk -F, -v P="$2" -v diag="$3" -v sampled="$4" -v header="$PAIRS_HEADER" -v reps="$5" '
        function num(v) { return v ~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ }
        /^#/ { next }
        !hdr { hdr = 1; if ($0 != header) bad = "header"; next }
        {
            rows++
            if (seen[$1 "," $2]++) bad = "pair " $1 "," $2 " twice"
            if ($1 < 0 || $1 >= P || $2 < 0 || $2 >= P) bad = "rank out of range"
            if ($1 == $2 && !diag) bad = "a diagonal row"
            if ($5 != reps) bad = "n"
            if (!num($3) || $3 < 0) bad = "o_us " $3
            for (c = 6; c <= 8; c++) if (!num($c)) bad = "o statistic " $c
            if ($1 == $2) {
                if ($4 != "" || $9 != "" || $10 != "" || $11 != "") bad = "L on the diagonal"
            } else {
                if (!num($4) || $4 < 0) bad = "L_us " $4
                for (c = 9; c <= 11; c++) if (!num($c)) bad = "L statistic " $c
            }
            if (!sampled && ($15 != $1 || $16 != $2)) bad = "src of a measured pair"
            if (sampled && !num($15)) bad = "src"
        }
        END {
            want = P * (P - 1) + (diag ? P : 0)
            if (rows != want) bad = bad " rows " rows " of " want
            if (bad != "") print FILENAME ": " bad
            exit !(hdr && bad == "")
        }' "$1"
}

# placement_ok FILE P: header and P rows 0..P-1 with whole numbers.
placement_ok() {
    awk -F, -v P="$2" '/^#/ { next }
        !hdr { hdr = ($0 == "rank,host,socket,numa,core"); next }
        { if ($1 != rows || $2 == "" || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/) bad = 1; rows++ }
        END { exit !(hdr && !bad && rows == P) }' "$1"
}

# mpich_build: the MPICH flavor of lopbench into build/mpich/ (bin/,
# tests/bin/), without sanitizers (MPICH's own allocations are not in
# tests/lsan.supp).  Tests that need it run concurrently (prove -j2): one
# make at a time, the others wait and find it built.  MAKEFLAGS is dropped so
# that a parent make's jobserver and variables do not leak in.  Output in $2.
MPICH_OUT=build/mpich
mpich_build() {
    mkdir -p "$ROOT/build"
    (
        flock 8
        env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j2 -C "$ROOT" MPICC=mpicc.mpich SANITIZE= \
            BIN=$MPICH_OUT/bin TESTBIN=$MPICH_OUT/tests/bin $MPICH_OUT/bin/lopbench \
            $MPICH_OUT/tests/bin/libsendbuf.so $MPICH_OUT/tests/bin/broken_sends
    ) 8>"$ROOT/build/mpich.lock" >"$1" 2>&1
}

# ---- the virtual cluster (70-cluster.t, 71-cluster-levels.t)
# cluster_start N [shared]: N nodes (cluster.sh up), under the suite's
# machine-wide lock, shared: clusters run beside each other and beside other
# tests (prove -j2), never beside the Soft-RoCE VM (which takes it
# exclusively: its emulated ranks need both cores); removed at exit with $T;
# MPI jobs across them run with each MPI's defaults (none of the OMPI_MCA_*
# variables above, which keep single-host runs on loopback).  Skips the
# whole file without root or nsenter.  The first test point: the nodes came up.
cluster_start() { _cluster_start cluster.sh "$@"; }
# slurm_start N: the same with Slurm on it (scripts/slurm-cluster.sh), the
# Slurm commands told its configuration (SLURM_CONF); skips the whole file
# where Slurm or munge is not installed.
slurm_start() {
    for _c in slurmctld slurmd srun munged; do
        command -v $_c >/dev/null 2>&1 ||
            { echo "1..0 # SKIP $_c is not installed (scripts/deps.sh installs Slurm)"; exit 0; }
    done
    _cluster_start slurm-cluster.sh "$@"
    export SLURM_CONF=$C/slurm/slurm.conf
}
_cluster_start() {
    _script=$1
    shift
    if [ "$(id -u)" != 0 ] || ! command -v nsenter >/dev/null 2>&1; then
        echo "1..0 # SKIP the cluster needs root (network namespaces) and nsenter"
        exit 0
    fi
    for _v in $(env | sed -n 's/^\(OMPI_MCA_[^=]*\)=.*/\1/p'); do unset "$_v"; done
    T=$(mktemp -d /tmp/lop-test.XXXXXX)
    C=$(mktemp -d /tmp/lop-cluster.XXXXXX) # no spaces: launchers split the agent's path
    A=$C/agent
    # replaces tmpdir's trap: its directory goes too
    trap '"$ROOT/scripts/$_script" down "$C"; rm -rf "$C" "$T" ${_d:+"$_d"}' EXIT
    exec 9>/tmp/lop-vm.lock
    flock -s 9
    # 9>&-: the nodes' holder processes must not keep the lock (a test killed
    # before its cleanup left them holding it for a day, every VM test waiting)
    "$ROOT/scripts/$_script" up "$C" "$@" 2>"$T/up.err" 9>&-
    check "$1 nodes come up${2:+ ($2 cores)}" test -x "$A"
    [ -x "$A" ] || { diag "$(cat "$T/up.err")"; done_testing; exit; }
}

# barrier_checks NAME CMD: on node0 of the cluster, CMD (a launcher and
# lopbench --barrier --check ...) for every algorithm with every executor
# that can run here, and the hybrid from the run's own placement (the
# algorithms with a schedule and the hybrid with p2p and shm, MPI_Barrier:
# 27 runs for 12): lopbench's verdict, all ok.
# More ranks than cores here: each checked barrier takes time slices, so
# the tests ask for few repetitions (the single-node tests check more).
barrier_checks() {
    _runs=$((2 * ($(algs schedule=yes | wc -l) + 1) + 1))
    "$A" node0 "$2 --alg all,hybrid" >"$T/checks.out" 2>&1
    check "$1: --check of every algorithm and the hybrid, executors p2p, shm, mpi" \
        grep -q "^--check: all $_runs runs ok" "$T/checks.out"
    grep -q "^--check: all $_runs runs ok" "$T/checks.out" ||
        diag "$(grep -v '^lopbench: \[' "$T/checks.out" | tail -n 6)"
}

# scenarios_ok DIR RANKS REPS MAX_POST HOSTS: every RTT, o_s and o_r file of
# a scenario run in DIR whole, as on one node (rows_ok: p = 1..RANKS-1 or
# k = 1..MAX_POST, REPS repetitions; meta_ok), '# hosts: HOSTS'.
scenarios_ok() {
    _n=0 REPS=$3
    for _f in "$1"/*-rtt.csv "$1"/*-os.csv "$1"/*-or.csv; do
        [ -f "$_f" ] || continue
        _b=${_f##*/} && _b=${_b%.csv}
        case $_b in *-rtt) _rows=$(($2 - 1)) ;; *) _rows=$4 ;; esac
        meta_ok "$_f" "${_b%-*}" "${_b##*-}" "$2" "$5" && rows_ok "$_f" "$_rows" "$3" ||
            { diag "scenarios_ok: $_f: hosts '$(meta "$_f" hosts)'"; return 1; }
        _n=$((_n + 1))
    done
    [ $_n -gt 0 ]
}

# ucx_ran OUT RC: a run over UCX across the cluster's nodes (MPICH, Open
# MPI's osc ucx) succeeded (RC 0), or its ranks said so before MPI_Finalize
# hung in UCX 1.13's TCP transport (README) and the watchdog ended them, the
# launcher then perhaps reporting the early exits (hydra 255, mpirun 1).
ucx_ran() {
    [ "$2" -eq 0 ] || grep -q "in MPI_Finalize, after the run succeeded" "$1"
}

# ---- the Soft-RoCE VMs (50-verbs-vm.t, 51-verbs-hosts.t)
# vm_dirs: TOP (removed on exit), C, a link to the checkout, and W, the work
# directory, both at paths with spaces under /tmp, which the guest covers
# with its own tmpfs: where the checkout is must not matter, so every run
# covers one there.
vm_dirs() {
    TOP=$(mktemp -d "/tmp/lop vm.XXXXXX")
    trap 'rm -rf "$TOP"' EXIT
    C="$TOP/check out"
    W="$TOP/work dir"
    ln -s "$ROOT" "$C" && mkdir "$W" || exit 1
}

# vm_run WHAT SUITE RUN_OPTION...: tests/vm/run.sh with RUN_OPTION... boots
# the VM(s) WHAT names and runs tests/vm/SUITE there, then the checks SUITE
# recorded run here.  One VM set at a time on this machine (two share 2 cores
# so badly that a run hit its 900 s limit): every checkout's VM test waits
# for the same lock, which flock alone holds (-o): nothing a VM leaves behind
# can keep it.  A VM that cannot start is a failure, never a skip.
vm_run() {
    _what=$1 _suite=$2
    shift 2
    _t0=$(date +%s)
    cd "$W" && flock -o /tmp/lop-vm.lock "$C/tests/vm/run.sh" "$@" --share "$W" -- \
        sh "$C/tests/vm/$_suite" "$W" >"$W/console" 2>&1
    _rc=$?
    vm_done=0
    vm_suite_done() { vm_done=1; }
    if [ -s "$W/checks.sh" ]; then
        pass "$_what ran $_suite ($(($(date +%s) - _t0)) s)"
        . "$W/checks.sh"
    else
        fail "$_what ran $_suite (run.sh exit $_rc)"
        diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)"
    fi
    check "the suite ran to its end" test $vm_done -eq 1
    [ $vm_done -eq 1 ] || diag "$(tail -n 5 "$W/log" 2>/dev/null)"
    check "run.sh passed the suite's exit status on (0, got $_rc)" test $_rc -eq 0
    [ $_rc -eq 0 ] || diag "$(grep -v '^\s*$' "$W/console" | tail -n 5)" "$(tail -n 3 "$W/log" 2>/dev/null)"
    [ -s "$W/times" ] && diag "emulated run times (s): $(tr '\n' ' ' <"$W/times")"
}
