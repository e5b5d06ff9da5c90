#!/bin/sh
# run.sh - run a command inside small qemu VMs that have a Soft-RoCE device,
# so lopbench's verbs code runs for real on a machine without RDMA hardware.
#
#   tests/vm/run.sh [--timeout S] [--share DIR] [--hosts 2] -- CMD [ARG...]
#
# The guest boots Debian's own kernel (downloaded with apt-get download,
# unpacked into a cache, never installed on the host) under qemu's software
# emulation (TCG: /dev/kvm here cannot boot a stock kernel), with an
# initramfs of busybox and the modules for 9p, virtio, networking, rdma_rxe
# and the RDMA connection manager (multicast joins).  The host's / is its
# root, shared read-only over 9p, so the host's libibverbs, rxe provider,
# MPI and the built binaries run unchanged.  The checkout is shared
# read-only and DIR (default: the current directory) writable, each at its
# own path (whatever it is: under /tmp, with spaces), so CMD finds the
# checkout and can leave files for the host.  Inside: /tmp, /run and
# /dev/shm are tmpfs (over the host's: the shares are mounted on top),
# /etc/hosts names the VMs, nothing leaves the VMs.  CMD runs in the current
# directory (which must be inside a share, or outside /tmp, /run and
# /dev/shm) with `ulimit -l unlimited`; its output is streamed, and run.sh
# exits with CMD's status, 124 when the VMs outlived --timeout (default
# 600 s), 125 when they could not be prepared or started (with one line
# saying why).
#
# One VM (the default): host lopvm, rxe0 over dummy0 with 10.78.0.1/24 (GID
# 0 IPv6 link-local, GID 1 IPv4-mapped, both RoCE v2).
# --hosts 2: two VMs lopvm0 and lopvm1, each with one vCPU, its own virtio
# NIC eth0 (10.78.0.<i+1>/24) and rxe0 over it, on one virtual wire (a qemu
# socket stream between them), multicast routed to eth0.  (Three would need
# a switch, qemu's stream being point to point, and a third emulated host:
# more than the suite's time allows here.)  CMD runs on lopvm0 once both
# are up, with
#   LOP_HOSTS      lopvm0,lopvm1
#   LOP_AGENT      a program that runs a command line on a VM as ssh would
#                  (tests/vm/agent: `$LOP_AGENT lopvm1 CMD`)
#   LOP_LINKCTL    a program that pulls or plugs back a VM's virtual cable
#                  (tests/vm/linkctl: `$LOP_LINKCTL lopvm1 off`)
#   LOP_HOSTFILE   every VM, one line each, as Open MPI's --hostfile reads it
#   LOP_MPIRUN_OPENMPI, LOP_MPIRUN_MPICH  each MPI's launcher reaching the
#                  VMs through LOP_AGENT (add -np and --host/-hosts)
#   UCX_NET_DEVICES=eth0  MPI's own traffic over TCP (UCX gives up on the
#                  emulated rxe0; lopbench's verbs code uses it directly)
# in its environment; the other VMs end when it has.
#
# Times inside are emulated (no invariant TSC): use the VMs for correctness,
# never for LoP parameters.  Environment: LOP_VM_CACHE (default
# ~/.cache/lop-vm, or $XDG_CACHE_HOME/lop-vm), LOP_VM_SMP (vCPUs of one VM,
# default 2; 1 each with --hosts: never more than host cores, busy polling
# ranks make TCG crawl), LOP_VM_MEM (default 2G, 1G each with --hosts).  The
# first run prepares kernel and initramfs (about 10 s, a 70 MB package);
# later runs reuse them.  One VM set at a time on a machine: callers hold
# /tmp/lop-vm.lock (tests/50-verbs-vm.t, 51-verbs-hosts.t).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TIMEOUT=600
SHARE=$(pwd)
HOSTS=0
USAGE="usage: run.sh [--timeout S] [--share DIR] [--hosts 2] -- CMD..."
while [ $# -gt 0 ]; do
    case $1 in
    --timeout) TIMEOUT=$2; shift 2 ;;
    --share) SHARE=$(cd "$2" && pwd); shift 2 ;;
    --hosts)
        [ "$2" = 2 ] || { echo "run.sh: --hosts takes 2, not '$2'" >&2; exit 125; }
        HOSTS=2
        shift 2 ;;
    --) shift; break ;;
    *) echo "run.sh: unknown option '$1' ($USAGE)" >&2; exit 125 ;;
    esac
done
[ $# -gt 0 ] || { echo "run.sh: no command ($USAGE)" >&2; exit 125; }
# Shared by every checkout of this user (a fresh clone then does not fetch
# the kernel again); run.sh is called under 50-verbs-vm.t's lock, so one
# prepares it at a time.
CACHE=${LOP_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-$ROOT/build}/.cache}/lop-vm}
if [ "$HOSTS" -gt 0 ]; then SMP=${LOP_VM_SMP:-1} MEM=${LOP_VM_MEM:-1G}; else SMP=${LOP_VM_SMP:-2} MEM=${LOP_VM_MEM:-2G}; fi
# Loaded in this order; crc32_generic before rdma_rxe, or `rdma link add`
# fails with "No such file or directory" (rxe computes its ICRC with it);
# rdma_ucm for librdmacm's multicast joins (on RoCE they join the IP group,
# without which the kernel drops the group's packets).
MODULES="virtio_pci virtio_net 9pnet_virtio 9p dummy crc32_generic rdma_rxe ib_uverbs rdma_ucm"

die() { echo "run.sh: $*" >&2; exit 125; }
need() { command -v "$1" >/dev/null 2>&1 || die "$1 is missing (scripts/deps.sh installs it)"; }

# ---- the kernel package: the one linux-image-amd64 depends on now
kernel_package() {
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1)
    if [ -z "$pkg" ]; then
        apt-get update -qq >/dev/null 2>&1 || true
        pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1)
    fi
    [ -n "$pkg" ] || die "cannot find Debian's kernel package (apt-cache depends linux-image-amd64)"
    echo "$pkg"
}

# ---- kernel + modules in $CACHE/<package>/, made once; the initramfs
# again whenever tests/vm/init changes (named by its checksum)
prepare() {
    need apt-get; need dpkg-deb; need depmod; need modprobe; need gzip
    [ -x /bin/busybox ] || die "/bin/busybox is missing (package busybox-static)"
    pkg=$(kernel_package)
    dir=$CACHE/$pkg-$(echo "$MODULES" | cksum | cut -d' ' -f1) # a new module list unpacks anew
    KERNEL=$dir/vmlinuz
    [ -s "$KERNEL" ] || unpack_kernel "$pkg" "$dir"
    INITRD=$dir/initrd-$(cksum <"$ROOT/tests/vm/init" | cut -d' ' -f1).gz
    [ -s "$INITRD" ] || make_initrd "$dir"
}

unpack_kernel() { # PACKAGE DIR
    rm -rf "$2.tmp" && mkdir -p "$2.tmp/deb" && cd "$2.tmp/deb"
    apt-get download "$1" >/dev/null 2>&1 || die "apt-get download $1 failed"
    cd "$2.tmp"
    dpkg-deb -x deb/*.deb tree || die "cannot unpack $1"
    kver=$(ls tree/lib/modules | head -n 1)
    depmod -b tree "$kver" || die "depmod failed for $kver"
    mkdir -p modules
    : >modules/order
    for m in $MODULES; do
        # "insmod PATH [OPTIONS]": PATH is the rest of the line up to its .ko
        # (the cache may be at a path with spaces)
        modprobe -d tree -S "$kver" --show-depends "$m" | while read -r verb path; do
            [ "$verb" = insmod ] || continue
            case $path in *".ko "*) path=${path%%.ko *}.ko ;; esac # options after it
            base=$(basename "$path")
            grep -qx "$base" modules/order && continue
            cp "$path" modules/ && echo "$base" >>modules/order
        done
    done
    [ "$(wc -l <modules/order)" -ge 9 ] || die "modules missing from $1: $MODULES"
    cp tree/boot/vmlinuz-"$kver" vmlinuz
    rm -rf tree deb
    cd / && rm -rf "$2" && mv "$2.tmp" "$2"
}

make_initrd() { # DIR
    work=$(mktemp -d /tmp/lop-initrd.XXXXXX)
    mkdir -p "$work/bin" "$work/lib/modules" "$work/proc" "$work/sys" "$work/dev" "$work/host"
    cp /bin/busybox "$work/bin/busybox"
    cp "$1"/modules/*.ko "$work/lib/modules/"
    cp "$1/modules/order" "$work/modules"
    cp "$ROOT/tests/vm/init" "$work/init" && chmod +x "$work/init"
    (cd "$work" && find . | /bin/busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$INITRD.tmp" &&
        mv "$INITRD.tmp" "$INITRD"
    rm -rf "$work"
    [ -s "$INITRD" ] || die "cannot make the initramfs"
}

# The 9p shares, one line each (tag, mount options, path), read by the
# guest's init from the ctl share: the checkout read-only and SHARE writable,
# parents first (SHARE is often inside the checkout: its writable mount goes
# on top of the read-only one).
# Paths travel in this file, not on the kernel's command line, which splits
# at spaces.  qemu's option syntax doubles a comma in a path.
share_lines() {
    printf 'checkout\tro\t%s\n' "$ROOT"
    printf 'share\trw\t%s\n' "$SHARE"
}
virtfs() { # TAG PATH [,readonly=on]
    printf 'local,path=%s,mount_tag=%s,security_model=none,multidevs=remap%s' \
        "$(printf '%s' "$2" | sed 's/,/,,/g')" "$1" "${3:-}"
}

# Quote each argument for sh.
quote() {
    for a in "$@"; do
        printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
    done
}

# The environment every command in the VMs starts with: what the tests rely
# on (MPI settings, LSAN/ASAN options), the set's launcher settings,
# memlock unlimited.
write_env() {
    env | grep -E '^(OMPI_|LSAN_|ASAN_|UBSAN_|LOP_|LANG=|LC_ALL=)' | grep -v '^LOP_VM_' |
        while IFS= read -r kv; do echo "export $(quote "$kv")"; done
    if [ "$HOSTS" -gt 0 ]; then
        hosts=lopvm0 i=1
        while [ $i -lt "$HOSTS" ]; do hosts=$hosts,lopvm$i i=$((i + 1)); done
        echo "export LOP_HOSTS=$hosts"
        echo "export LOP_AGENT=$CTL/agent LOP_HOSTFILE=$CTL/hostfile LOP_LINKCTL=$CTL/linkctl"
        echo "export LOP_MPIRUN_OPENMPI='mpirun.openmpi --mca plm_rsh_agent $CTL/agent'"
        echo "export LOP_MPIRUN_MPICH='mpiexec.hydra -launcher ssh -launcher-exec $CTL/agent'"
        # MPI's own traffic over TCP on eth0: UCX (MPICH's ch4, Open MPI's
        # osc ucx) would take rxe0 too, and its UD transport gives up on the
        # emulated device ("ud_ep.c: unhandled timeout error", both MPIs).
        echo "export UCX_NET_DEVICES=eth0"
    fi
    echo "ulimit -l unlimited"
}

# /etc/hosts of the VMs, and the MPI hostfile.
write_hosts() {
    echo "127.0.0.1 localhost"
    if [ "$HOSTS" -eq 0 ]; then
        echo "10.78.0.1 lopvm"
        return
    fi
    i=0
    while [ $i -lt "$HOSTS" ]; do
        echo "10.78.0.$((i + 1)) lopvm$i"
        echo "lopvm$i" >>"$CTL/hostfile"
        mkdir -p "$CTL/jobs/lopvm$i"
        i=$((i + 1))
    done
}

# The NIC of VM $1 of a set: the first listens on the wire's socket, the
# second connects to it.
vm_nic() {
    if [ "$HOSTS" -eq 0 ]; then
        echo "-nic none -monitor none"
        return
    fi
    [ "$1" -eq 0 ] && server=on || server=off
    echo "-netdev stream,id=n0,server=$server,addr.type=unix,addr.path=$CTL/wire" \
        "-device virtio-net-pci,netdev=n0,mac=52:54:00:78:00:0$(($1 + 1))" \
        "-monitor unix:$CTL/mon.$1,server=on,wait=off"
}

# One line to VM $1's qemu monitor (human monitor protocol), waiting for
# its answer; perl is there for prove.
monitor_say() {
    perl -MIO::Socket::UNIX -e '
        my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "$ARGV[0]: $!\n";
        local $/ = "(qemu) "; <$s>;          # the banner, up to the prompt
        print $s "$ARGV[1]\n"; my $a = <$s>; # the echo and answer, to the next
        die "$ARGV[1]: $a\n" if $a =~ /error|not found|invalid/i;' "$CTL/mon.$1" "$2"
}

# The cable requests of tests/vm/linkctl (CTL/link.I holding on or off),
# until the first VM ends; CTL/linked.I once done.
serve_links() {
    while kill -0 "$first" 2>/dev/null; do
        for f in "$CTL"/link.*; do
            case $f in *.new | *"*") continue ;; esac
            i=${f##*.}
            state=$(cat "$f") && rm -f "$f"
            monitor_say "$i" "set_link n0 $state" && : >"$CTL/linked.$i"
        done
        sleep 0.2
    done
}

# Boot VM $1 (0 for a single VM); its console on stdout, qemu's status in
# CTL/qemu.$1, the pid of the timeout holding it in CTL/pid.$1 (stop_vms:
# a kill of this function's subshell would not reach qemu).
vm_boot() {
    host_args=
    [ "$HOSTS" -eq 0 ] || host_args=" lop_host=$1"
    # shellcheck disable=SC2046 # vm_nic's words
    { timeout -k 10 "$TIMEOUT" qemu-system-x86_64 \
        -accel tcg,thread=multi -cpu max -smp "$SMP" -m "$MEM" \
        -nographic -no-reboot $(vm_nic "$1") \
        -kernel "$KERNEL" -initrd "$INITRD" \
        -append "console=ttyS0 quiet panic=-1 lop_ctl=$CTL$host_args" \
        -virtfs "$(virtfs hostroot / ,readonly=on)" \
        -virtfs "$(virtfs ctl "$CTL")" \
        -virtfs "$(virtfs checkout "$ROOT" ,readonly=on)" \
        -virtfs "$(virtfs share "$SHARE")" \
        </dev/null &
      echo $! >"$CTL/pid.$1"
      wait $!
      echo $? >"$CTL/qemu.$1"; } | tr -d '\r'
}

# Every VM still running (no status yet), stopped: timeout passes the TERM on to its qemu
# (and KILLs it 10 s later).
stop_vms() {
    for _p in "$CTL"/pid.*; do
        [ -s "$_p" ] && [ ! -e "$CTL/qemu.${_p##*.}" ] && kill "$(cat "$_p")" 2>/dev/null
    done
    :
}

# VMs 1.. of a set, in the background (consoles in CTL/console.I), once the
# wire is there.
boot_others() {
    i=0
    while [ ! -S "$CTL/wire" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    [ -S "$CTL/wire" ] || die "the first VM did not open the wire ($CTL/wire)"
    i=1
    while [ $i -lt "$HOSTS" ]; do
        vm_boot $i >"$CTL/console.$i" 2>&1 &
        PIDS="$PIDS $!"
        i=$((i + 1))
    done
}

# After the first VM: the others power off (CTL/halt: qemu's status in
# CTL/qemu.I), or are stopped after 20 s; then the link server.  (Waiting
# on 'kill -0' of the boot subshells ended at once when the link server had
# gone, and killing a subshell left its qemu running, holding the VM lock
# until --timeout and taking a core.)
stop_others() {
    : >"$CTL/halt"
    i=0
    while [ $i -lt 200 ]; do
        _up=0 _v=1
        while [ $_v -lt "$HOSTS" ]; do
            [ -e "$CTL/qemu.$_v" ] || _up=1
            _v=$((_v + 1))
        done
        [ $_up -eq 1 ] || break
        sleep 0.1
        i=$((i + 1))
    done
    [ $i -lt 200 ] || echo "run.sh: a VM did not power off within 20 s of the halt: stopped" >&2
    stop_vms
    [ -z "$PIDS" ] || kill $PIDS 2>/dev/null || :
}

need qemu-system-x86_64
case $(pwd)/ in
"$ROOT"/* | "$SHARE"/*) ;;
/tmp/* | /run/* | /dev/shm/*) die "the current directory $(pwd) would be hidden in the VM (its /tmp, /run and /dev/shm are its own): run from the checkout or the --share directory" ;;
esac
prepare
for dir in "$ROOT" "$SHARE"; do
    case $dir in *"
"*) die "a newline in the path '$dir' cannot be shared with the VM" ;; esac
done
CTL=$(mktemp -d /tmp/lop-vm.XXXXXX)
PIDS=
# (set -e: a kill of VMs already gone must not become the exit status)
trap 'stop_vms; [ -z "$PIDS" ] || kill $PIDS 2>/dev/null || :; rm -rf "$CTL"' EXIT
share_lines | LC_ALL=C sort -t "$(printf '\t')" -k3,3 >"$CTL/shares"
write_hosts >"$CTL/hosts"
write_env >"$CTL/env.sh"
VMPOLL=${TESTBIN:-$ROOT/tests/bin}/vmpoll
[ -x "$VMPOLL" ] || die "$VMPOLL is missing (make tests builds it)"
cp "$ROOT/tests/vm/agent" "$ROOT/tests/vm/jobd" "$ROOT/tests/vm/linkctl" "$VMPOLL" "$CTL/"
{
    echo "cd $(quote "$(pwd)") || exit 125"
    echo ". $CTL/env.sh"
    echo "exec $(quote "$@")"
} >"$CTL/cmd.sh"
vm_boot 0 &
first=$!
[ "$HOSTS" -eq 0 ] || boot_others
[ "$HOSTS" -eq 0 ] || { serve_links & PIDS="$PIDS $!"; }
wait $first || :
[ "$HOSTS" -eq 0 ] || stop_others
qemu_rc=$(cat "$CTL/qemu.0" 2>/dev/null || echo 125)
if [ ! -s "$CTL/rc" ]; then
    [ -s "$CTL/why" ] && die "the VM could not start the command: $(cat "$CTL/why")"
    [ "$qemu_rc" -eq 124 ] && { echo "run.sh: the VM outlived --timeout $TIMEOUT s" >&2; exit 124; }
    die "the VM stopped without the command's exit status (qemu exit $qemu_rc)"
fi
exit "$(cat "$CTL/rc")"
