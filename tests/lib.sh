# lib.sh - shared helpers for the TAP shell tests in tests/*.t.
#   . "$(dirname "$0")/lib.sh"
#   check NAME COMMAND...          one test point: passes when COMMAND succeeds
#   pass NAME / fail NAME          a test point decided by the script
#   run_mpi N ARGS...              mpirun with N local ranks, any MPI, as root too
#   tmpdir                         sets $_d to a fresh directory removed at exit
#                                  (call it plainly, not as $(tmpdir): a subshell
#                                  would run the exit trap at once)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/bin
export LANG=C LC_ALL=C
export LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0"
# Open MPI refuses root without these; harmless elsewhere.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No RDMA device here: keep Open MPI from probing for one noisily.
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_pml=ob1 OMPI_MCA_btl_tcp_if_include=lo
export OMPI_MCA_rmaps_base_oversubscribe=1

_tap_n=0
_tap_failed=0
pass() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
fail() { _tap_n=$((_tap_n + 1)); _tap_failed=$((_tap_failed + 1)); echo "not ok $_tap_n - $*"; }
# check NAME COMMAND...: a test point that passes when COMMAND succeeds
check() { _name=$1; shift; if "$@"; then pass "$_name"; else fail "$_name"; fi; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
done_testing() { echo "1..$_tap_n"; [ "$_tap_failed" -eq 0 ]; }

run_mpi() {
    _np=$1; shift
    if mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
        timeout 300 mpirun --oversubscribe -np "$_np" "$@"
    else
        timeout 300 mpirun -np "$_np" "$@"
    fi
}

tmpdir() {
    _d=$(mktemp -d /tmp/lop-test.XXXXXX)
    trap 'rm -rf "$_d"' EXIT
}
