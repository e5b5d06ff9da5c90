# plots-lib.sh - shared set-up of the figure tests (tests/6*-plots*.t), sourced
# after tests/lib.sh: skips the test without gnuplot, sets T to a fresh
# directory, and defines
#   is_png FILE   the PNG signature and more than 8 KB (a figure, not an empty frame)
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "1..0 # SKIP gnuplot not installed"
    exit 0
fi
tmpdir
T=$_d
printf '\211PNG\r\n\032\n' >"$T/png.sig"
is_png() {
    [ -f "$1" ] && head -c 8 "$1" | cmp -s - "$T/png.sig" && [ "$(wc -c <"$1")" -gt 8192 ]
}
