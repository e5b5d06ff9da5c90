#!/bin/sh
# 73-cluster-twice.t - cluster.sh up on a DIR whose cluster is up is refused
# in one line before anything changes: a second cluster would take DIR's
# tag, and down DIR would never find the first (its namespaces, its
# holders, its cgroup).  Two nodes, under the suite's lock (lib.sh
# cluster_start).
. "$(dirname "$0")/lib.sh"
cluster_start 2
_d=$T # refuses_one_line's scratch files
tag=$(cat "$C/tag")
nss=$(ip netns list | sed -n "s/^\($tag-[^ ]*\).*/\1/p" | sort | tr '\n' ' ')
# What down needs of the first cluster, should a second one take DIR anyway.
mkdir "$T/first" && cp "$C/tag" "$C/cgroup" "$C"/pid.* "$T/first/"

{ refuses_one_line "up on a DIR whose cluster is up: refused, exit 1" 1 \
    "$C holds a cluster that is up ($tag, namespaces $tag-\*): cluster.sh down $C first" \
    "$ROOT/scripts/cluster.sh" up "$C" 2; } 9>&-
check "... DIR keeps its tag, its cluster its namespaces ($nss)" sh -c "test \"\$(cat '$C/tag')\" = '$tag' &&
    test \"\$(ip netns list | sed -n 's/^\\($tag-[^ ]*\\).*/\\1/p' | sort | tr '\\n' ' ')\" = '$nss'"
check "... and its nodes answer" test "$("$A" node1 hostname)" = node1
check "no holder keeps the suite's lock" sh -c \
    'for f in "$1"/pid.*; do ls -l /proc/$(cat "$f")/fd 2>/dev/null | grep -q lop-vm.lock && exit 1; done; :' sh "$C"

"$ROOT/scripts/cluster.sh" down "$C"
"$ROOT/scripts/cluster.sh" down "$T/first"
check "down: no namespace of the cluster left" sh -c "! ip netns list | grep -q '^$tag-'"
# A tag whose cluster is gone (a reboot leaves it so) does not stand in the way.
echo "$tag" >"$C/tag"
"$ROOT/scripts/cluster.sh" up "$C" 2 2>"$T/again.err" 9>&-
new=$(cat "$C/tag" 2>/dev/null)
check "up on a DIR whose cluster is gone: a new one ($new)" sh -c \
    "test -n '$new' && test '$new' != '$tag' && ip netns list | grep -q '^$new-'"
done_testing
