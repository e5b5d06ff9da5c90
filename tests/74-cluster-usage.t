#!/bin/sh
# 74-cluster-usage.t - scripts/cluster.sh (and slurm-cluster.sh) called wrongly says how to call it,
# in one line, exit 1, without root and without making a cluster: node-setup
# without its arguments once stopped at "2: parameter not set" (set -u).
. "$(dirname "$0")/lib.sh"
tmpdir
T=$_d
C=$ROOT/scripts/cluster.sh

# usage NAME PATTERN ARGS...: cluster.sh ARGS fails with one line matching PATTERN
usage() {
    _name=$1 _pattern=$2
    shift 2
    env ${USAGE_ENV:-} sh "$C" "$@" >"$T/out" 2>"$T/err"
    _rc=$?
    if [ $_rc -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
        grep -q "^$(basename "$C"): $_pattern" "$T/err"; then
        pass "$_name"
    else
        fail "$_name (exit $_rc)"
        diag "$(cat "$T/out" "$T/err")"
    fi
}
usage "no command" "usage: cluster.sh up DIR N"
usage "an unknown command" "usage: cluster.sh up DIR N" start
usage "up without DIR and N" "usage: cluster.sh up DIR N" up
usage "down without DIR" "usage: cluster.sh down DIR" down
usage "node-setup without its arguments" "usage: cluster.sh node-setup NAME DIR CGROUP" node-setup
usage "node-setup with two of three" "usage: cluster.sh node-setup NAME DIR CGROUP" \
    node-setup node0 "$T"
USAGE_ENV=LOP_CLUSTER_PREFIX=lop-x # USAGE_ENV: the environment cluster.sh runs in
usage "LOP_CLUSTER_PREFIX not 1 to 4 lowercase letters" "LOP_CLUSTER_PREFIX 'lop-x' is not 1 to 4" up "$T/c" 2
USAGE_ENV=
check "... nothing made" test -z "$(ls -A "$T" | grep -v -e '^out$' -e '^err$')"
# slurm-cluster.sh likewise (its checks before any command is looked for)
C=$ROOT/scripts/slurm-cluster.sh
usage "slurm-cluster.sh: no command" "usage: slurm-cluster.sh up DIR N \[--wait S\] | down DIR"
usage "slurm-cluster.sh: up without N" "usage: slurm-cluster.sh up DIR N" up "$T/s"
usage "slurm-cluster.sh: --wait not a number" "--wait: S must be a whole number of seconds >= 1" \
    up "$T/s" 2 --wait soon
usage "slurm-cluster.sh: down without DIR" "usage: slurm-cluster.sh down DIR" down
check "... nothing made" test -z "$(ls -A "$T" | grep -v -e '^out$' -e '^err$')"

# down when a node's process ends by itself between the listing of the
# node's processes and the kill: down still removes every namespace.  An
# ip on PATH plays the nodes (no namespace is made): it lists one that
# holds a process that is gone, and records the deletions.
mkdir -p "$T/down/bin"
cat >"$T/down/bin/ip" <<EOS
#!/bin/sh
case "\$*" in
"netns list") printf 'lopzz1-0\nlopzz1-sw\n' ;;
"netns pids lopzz1-0") echo 2147483646 ;;
"netns pids "*) ;;
"netns del "*) echo "\$3" >>"$T/down/deleted" ;;
*) exit 1 ;;
esac
EOS
chmod +x "$T/down/bin/ip"
echo lopzz1 >"$T/down/tag"
PATH="$T/down/bin:$PATH" sh "$ROOT/scripts/cluster.sh" down "$T/down" >"$T/out" 2>&1
rc=$?
check "down with a node's process gone before its kill: exit 0 ($rc)" test $rc -eq 0
check "... both namespaces deleted" test "$(cat "$T/down/deleted" 2>/dev/null | tr '\n' ' ')" = "lopzz1-0 lopzz1-sw "
check "... and the tag removed" test ! -e "$T/down/tag"
done_testing
