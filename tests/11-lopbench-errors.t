#!/bin/sh
# 11-lopbench-errors.t - bad input stops every rank of lopbench (no hang:
# run_mpi has a timeout), with a non-zero exit, one line from lopbench naming
# the problem, and no output created.  This machine has no RDMA device, so
# verbs must fail cleanly too.
. "$(dirname "$0")/lib.sh"
# Under SANITIZE=1: unwind malloc stacks fully, so that allocations made inside
# the MPI library are attributed to it (and suppressed by tests/lsan.supp).
tmpdir >/dev/null
T=$_d
B=$BIN/lopbench
SMALL="--reps 2 --warmup 0 --max-post 2 --idle-us 0"

# refuses NAME PATTERN NP ARGS...: lopbench with the small settings (lib.sh)
refuses() {
    name=$1 pattern=$2 np=$3
    shift 3
    mpi_refuses "$name" "$pattern" "$np" "$B" $SMALL "$@"
}

refuses "unknown option" "unknown option '--bogus'" 2 --bogus -o "$T/o"
refuses "a stray operand" "unexpected argument 'extra'" 2 extra -o "$T/o"
refuses "one rank" "needs at least 2 MPI ranks" 1 --transport mpi -o "$T/o"
refuses "--max-post 0" "option --max-post: '0' is not in 1..1024" 2 --max-post 0 -o "$T/o"
refuses "--reps x" "option --reps: 'x' is not an integer" 2 --reps x -o "$T/o"
refuses "unknown op" "option --ops: unknown value 'rdmar'" 2 --ops send,rdmar -o "$T/o"
refuses "unknown transport" "option --transport: unknown value 'tcp'" 2 --transport tcp -o "$T/o"
refuses "--device with --transport mpi" "option --device: only for the verbs transport" 2 \
    --transport mpi --device mlx5_0 -o "$T/o"
refuses "a device that does not exist" "option --device: no RDMA device 'nosuchdev0'" 2 \
    --device nosuchdev0 -o "$T/o"
refuses "--transport verbs" "no RDMA device found" 2 --transport verbs -o "$T/o"
refuses "--transport verbs at -np 3" "no RDMA device found" 3 --transport verbs -o "$T/o"

# An output directory that cannot be made (root ignores permissions: use a
# path below a regular file).
: >"$T/file"
refuses "unwritable output directory" "option --output: cannot create directory '$T/file/sub'" \
    2 --transport mpi -o "$T/file/sub"
check "unwritable output directory: nothing created" test ! -e "$T/file/sub"
refuses "-o a regular file: not a directory" "option --output: $T/file is not a directory" \
    2 --transport mpi -o "$T/file"

refuses "--p 2..1: an empty range, worded as lopredict words it" "option --p: empty range '2..1'" \
    2 --barrier --p 2..1 -o "$T/o"
refuses "--alg diss,diss: an algorithm twice" "option --alg: 'diss' is named twice" \
    2 --barrier --alg diss,diss -o "$T/o"

# Options that select nothing measurable are refused before the output
# directory is made (they once measured nothing and exited 0).
refuses "scenarios 2 and 3 with list posts" "nothing to measure: .*no series (scenarios 2 and 3 have no list posts)" \
    2 --quiet --transport mpi --scenario 2,3 --post list -o "$T/o"
refuses "rdmaw inline over MPI" "nothing to measure: transport mpi can measure none" \
    2 --quiet --transport mpi --ops rdmaw --post inline -o "$T/o"
refuses "mcast over MPI: the reason named" \
    "nothing to measure: transport mpi .*(mcast-normal: not applicable: MPI has no hardware multicast" \
    2 --quiet --transport mpi --ops mcast --scenario 2 -o "$T/o"

# A file the run would write that exists and is not a regular file is
# refused before the measurements, and left as it is (a FIFO and a symbolic
# link once became regular files, at the end of the run).
for kind in fifo link dir; do
    rm -rf "$T/o" && mkdir "$T/o" && : >"$T/target"
    case $kind in
    fifo) mkfifo "$T/o/send-normal-os.csv" ;;
    link) ln -s "$T/target" "$T/o/send-normal-os.csv" ;;
    dir) mkdir "$T/o/send-normal-os.csv" ;;
    esac
    run_mpi 2 "$B" $SMALL --quiet --transport mpi --scenario 1 --ops send --post normal \
        -o "$T/o" >"$T/out" 2>&1
    check "a $kind where a file goes: refused before measuring" \
        grep -q "^lopbench: $T/o/send-normal-os.csv: exists and is a" "$T/out"
    check "a $kind where a file goes: the directory as it was" \
        test "$(ls -A "$T/o")" = send-normal-os.csv
done
rm -rf "$T/o" && mkdir "$T/o" && : >"$T/target" && ln -s "$T/target" "$T/o/send-normal-os.csv"
run_mpi 2 "$B" $SMALL --quiet --transport mpi --scenario 1 --ops send --post normal -o "$T/o" \
    >/dev/null 2>&1
check "a symbolic link where a file goes: still a link, its target empty" \
    sh -c 'test -L "$1" && test ! -s "$2"' sh "$T/o/send-normal-os.csv" "$T/target"

# --barrier and --pairs check their files before the work too (not the
# whole table measured and printed, then the FIFO refused).
rm -rf "$T/o" && mkdir "$T/o" && mkfifo "$T/o/barrier.csv"
run_mpi 2 "$B" --barrier --alg diss --executor p2p --reps 3 --warmup 1 -o "$T/o" >"$T/out" 2>&1
check "--barrier: barrier.csv a FIFO: refused" \
    grep -q "^lopbench: $T/o/barrier.csv: exists and is a FIFO" "$T/out"
check "... before any barrier ran (no table, no 'wrote')" sh -c "! grep -q 'diss' '$T/out'"
check "... the FIFO left as it was" test -p "$T/o/barrier.csv"
rm -rf "$T/o" && mkdir "$T/o" && : >"$T/target" && ln -s "$T/target" "$T/o/placement.csv"
run_mpi 2 "$B" --pairs --reps 3 --warmup 1 -o "$T/o" >"$T/out" 2>&1
check "--pairs: placement.csv a symbolic link: refused" \
    grep -q "^lopbench: $T/o/placement.csv: exists and is a symbolic link" "$T/out"
check "... before any round ran" sh -c "! grep -q 'pairs round' '$T/out'"
check "... the link and the directory as they were" \
    sh -c 'test -L "$1/placement.csv" && test "$(ls -A "$1")" = placement.csv' sh "$T/o"

# Without the wrapper, mpirun reports the failure in its exit status.
run_mpi 2 "$B" --transport verbs -o "$T/o" >/dev/null 2>&1
check "mpirun's exit status is non-zero when lopbench refuses" test $? -ne 0

# --help works without mpirun and lists every option
"$B" --help >"$T/help" 2>&1
check "--help exits 0" test $? -eq 0
for o in transport scenario ops post max-post reps warmup idle-us output device port gid-index quiet raw; do
    check "--help lists --$o" grep -q -- "--$o" "$T/help"
done

done_testing
