# plots-lib.sh - shared set-up of the figure tests (tests/6*-plots*.t), sourced
# after tests/lib.sh: skips the test without gnuplot, sets T to a fresh
# directory, and defines
#   is_png FILE   the PNG signature and more than 8 KB (a figure, not an empty frame)
#   gp FIG DIR OUT [EXTRA]   run plots/FIG.gp on DIR into OUT (EXTRA: more
#                 gnuplot -e settings), stderr in $T/err, in a UTF-8 locale as
#                 plot.sh (under LANG=C gnuplot warns that it cannot convert a
#                 degree sign)
#   one_line FILE PATTERN    FILE is exactly one line and matches PATTERN
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
gp() {
    LC_ALL=C.UTF-8 gnuplot -e "dir='$2'; out='$3'${4:+; $4}" "$ROOT/plots/$1.gp" 2>"$T/err"
}
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q "$2" "$1"; }
