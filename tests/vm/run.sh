#!/bin/sh
# run.sh - run a command inside a small qemu VM that has a Soft-RoCE device,
# so lopbench's verbs code runs for real on a machine without RDMA hardware.
#
#   tests/vm/run.sh [--timeout S] [--share DIR] -- CMD [ARG...]
#
# The guest boots Debian's own kernel (downloaded with apt-get download,
# unpacked into a cache, never installed on the host) under qemu's software
# emulation (TCG: /dev/kvm here cannot boot a stock kernel), with an
# initramfs of busybox and the modules for 9p, virtio, a dummy netdev and
# rdma_rxe.  The host's / is its root, shared read-only over 9p, so the
# host's libibverbs, rxe provider, MPI and the built binaries run unchanged.
# The checkout is shared read-only and DIR (default: the current directory)
# writable, each at its own path (whatever it is: under /tmp, with spaces),
# so CMD finds the checkout and can leave files for the host.  Inside: /tmp,
# /run and /dev/shm are tmpfs (over the host's: the shares are mounted on
# top), rxe0 runs over dummy0 (GID 0, IPv6 link-local, RoCE v2), nothing
# leaves the VM.  CMD runs in the current directory (which must be inside a
# share, or outside /tmp, /run and /dev/shm) with `ulimit -l
# unlimited`; its output is streamed, and run.sh exits with CMD's status,
# 124 when the VM outlived --timeout (default 600 s), 125 when the VM could
# not be prepared or started (with one line saying why).
#
# Times inside are emulated (no invariant TSC): use the VM for correctness,
# never for LoP parameters.  Environment: LOP_VM_CACHE (default
# ~/.cache/lop-vm, or $XDG_CACHE_HOME/lop-vm), LOP_VM_SMP (vCPUs, default 2: never more than host cores, busy
# polling ranks make TCG crawl), LOP_VM_MEM (default 2G).  The first run
# prepares kernel and initramfs (about 10 s, a 70 MB package); later runs
# reuse them.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TIMEOUT=600
SHARE=$(pwd)
while [ $# -gt 0 ]; do
    case $1 in
    --timeout) TIMEOUT=$2; shift 2 ;;
    --share) SHARE=$(cd "$2" && pwd); shift 2 ;;
    --) shift; break ;;
    *) echo "run.sh: unknown option '$1' (usage: run.sh [--timeout S] [--share DIR] -- CMD...)" >&2; exit 125 ;;
    esac
done
[ $# -gt 0 ] || { echo "run.sh: no command (usage: run.sh [--timeout S] [--share DIR] -- CMD...)" >&2; exit 125; }
# Shared by every checkout of this user (a fresh clone then does not fetch
# the kernel again); run.sh is called under 50-verbs-vm.t's lock, so one
# prepares it at a time.
CACHE=${LOP_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-$ROOT/build}/.cache}/lop-vm}
SMP=${LOP_VM_SMP:-2}
MEM=${LOP_VM_MEM:-2G}
# Loaded in this order; crc32_generic before rdma_rxe, or `rdma link add`
# fails with "No such file or directory" (rxe computes its ICRC with it).
MODULES="virtio_pci 9pnet_virtio 9p dummy crc32_generic rdma_rxe ib_uverbs"

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
    dir=$CACHE/$pkg
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
    [ "$(wc -l <modules/order)" -ge 7 ] || die "modules missing from $1: $MODULES"
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
trap 'rm -rf "$CTL"' EXIT
share_lines | LC_ALL=C sort -t "$(printf '\t')" -k3,3 >"$CTL/shares"
# The command as a script the guest runs: same directory, the environment
# the tests rely on (MPI settings, LSAN/ASAN options), memlock unlimited.
{
    echo "cd $(quote "$(pwd)") || exit 125"
    env | grep -E '^(OMPI_|LSAN_|ASAN_|UBSAN_|LOP_|LANG=|LC_ALL=)' | while IFS= read -r kv; do
        echo "export $(quote "$kv")"
    done
    echo "ulimit -l unlimited"
    echo "exec $(quote "$@")"
} >"$CTL/cmd.sh"

timeout -k 10 "$TIMEOUT" qemu-system-x86_64 \
    -accel tcg,thread=multi -cpu max -smp "$SMP" -m "$MEM" \
    -nographic -no-reboot -nic none -monitor none \
    -kernel "$KERNEL" -initrd "$INITRD" \
    -append "console=ttyS0 quiet panic=-1 lop_ctl=$CTL" \
    -virtfs "$(virtfs hostroot / ,readonly=on)" \
    -virtfs "$(virtfs ctl "$CTL")" \
    -virtfs "$(virtfs checkout "$ROOT" ,readonly=on)" \
    -virtfs "$(virtfs share "$SHARE")" \
    </dev/null | tr -d '\r'
qemu_rc=$?
if [ ! -s "$CTL/rc" ]; then
    [ -s "$CTL/why" ] && die "the VM could not start the command: $(cat "$CTL/why")"
    [ $qemu_rc -eq 124 ] && { echo "run.sh: the VM outlived --timeout $TIMEOUT s" >&2; exit 124; }
    die "the VM stopped without the command's exit status (qemu exit $qemu_rc)"
fi
exit "$(cat "$CTL/rc")"
