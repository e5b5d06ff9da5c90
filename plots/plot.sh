#!/bin/sh
# plot.sh - render every lop figure the data in a directory allows.
#
#   plots/plot.sh DATA_DIR [OUT_DIR [FIGURE...]]   (OUT_DIR defaults to DATA_DIR)
#   PLOT_FORMAT=svg plots/plot.sh ...              (png, the default, svg or pdf)
#
# FIGURE is one of rtt overhead latency predict ndiss measured pairs hybrid
# distribution impact; without any, every figure is tried.
# Prints one line per figure: the file written, or why it was skipped.  Exits
# non-zero when DATA_DIR is missing, when a figure fails to render, or when the
# data allow no figure at all.  Figures are written atomically (temp + rename).
# gnuplot runs in the C.UTF-8 locale: the figures' labels use UTF-8 (µ, ⌈⌉), and
# under LANG=C gnuplot warns that it cannot convert its degree sign.
set -u
prog=plot.sh
here=$(cd "$(dirname "$0")" && pwd)
fmt=${PLOT_FORMAT:-png}

die() { echo "$prog: $*" >&2; exit 1; }

all="rtt overhead latency predict ndiss measured pairs hybrid distribution impact"
[ $# -ge 1 ] || { echo "usage: $prog DATA_DIR [OUT_DIR [FIGURE...]]" >&2; exit 2; }
data=$1
out=${2:-$1}
shift $(($# < 2 ? $# : 2))
for _f in "$@"; do
    case " $all " in *" $_f "*) ;; *) die "figure '$_f': expected one of: $all" ;; esac
done
figures=${*:-$all}
[ -d "$data" ] || die "$data: no such directory"
# An interrupted lop run was moving these files into place (README, Data formats).
[ -e "$data/.lop-incomplete" ] &&
    die "$data: an interrupted run left it incomplete ($data/.lop-incomplete lists the files): run it again"
case $fmt in png|svg|pdf) ;; *) die "PLOT_FORMAT=$fmt: expected png, svg or pdf" ;; esac
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
mkdir -p "$out" 2>/dev/null || die "$out: cannot create directory"
# Every figure is written through a temporary file in OUT_DIR: one line now,
# not a failure per figure whose reason is a file that could not be made.
_probe=$(mktemp "$out/.plot.XXXXXX" 2>/dev/null) || die "$out: cannot write in it"
rm -f "$_probe"
case $data in *\'*) die "$data: a directory name with a single quote is not supported" ;; esac

# has GLOB: does DATA_DIR hold a file matching GLOB?
has() {
    for _f in "$data"/$1; do [ -f "$_f" ] && return 0; done
    return 1
}

# unplottable GLOB[:COLUMNS]...: "FILE: why" of the first file of DATA_DIR
# matching a GLOB that holds nothing to plot, or lacks one of the COLUMNS
# (comma-separated) its figure plots (datacheck.awk); else nothing
unplottable() {
    for _g in "$@"; do
        for _f in "$data"/${_g%%:*}; do
            [ -f "$_f" ] || continue
            _need=
            case $_g in *:*) _need=${_g#*:} ;; esac
            _why=$(awk -F, -v need="$_need" -f "$here/datacheck.awk" "$_f" 2>&1)
            [ -z "$_why" ] || { echo "$_f: $_why"; return; }
        done
    done
}

# inputs GLOB[:COLUMNS]...: the files of DATA_DIR a figure reads, the first
# three and how many more, for a failure no one file explains
inputs() {
    _n=0 _list=
    for _g in "$@"; do
        for _f in "$data"/${_g%%:*}; do
            [ -f "$_f" ] || continue
            _n=$((_n + 1))
            [ $_n -gt 3 ] || _list="$_list${_list:+, }$_f"
        done
    done
    [ $_n -le 3 ] || _list="$_list and $((_n - 3)) more"
    echo "$_list"
}

rendered=0
failed=0
# render FIG NOTE GLOB[:COLUMNS]...: run plots/FIG.gp on DATA_DIR into
# OUT_DIR/FIG.FMT; the GLOBs are the files it reads (with the columns it
# plots), named when it fails: the one at fault, else all of them
render() {
    _fig=$1 _note=$2
    shift 2
    _dst=$out/$_fig.$fmt
    _tmp=$out/.$_fig.tmp.$$.$fmt
    _err=$out/.$_fig.err.$$
    if LC_ALL=C.UTF-8 gnuplot -e "dir='$data'; term='$fmt'; out='$_tmp'" "$here/$_fig.gp" 2>"$_err" &&
        [ -s "$_tmp" ]; then
        mv -f "$_tmp" "$_dst"
        echo "$prog: wrote $_dst${_note:+ ($_note)}"
        rendered=$((rendered + 1))
        cat "$_err" >&2
    else
        rm -f "$_tmp"
        _why=$(unplottable "$@")
        if [ -z "$_why" ]; then # the .gp's own message names its file
            _why=$(grep -v '^[[:space:]]*$' "$_err" | tail -n 1)
            case $_why in
            *"$data/"*) ;;
            *) _why="reading $(inputs "$@"): ${_why:-gnuplot drew nothing and said nothing}" ;;
            esac
        fi
        echo "$prog: $_fig failed: $_why" >&2
        failed=$((failed + 1))
    fi
    rm -f "$_err"
}
# skip FIG REASON
skip() { echo "$prog: skipped $1: $2"; }
# wanted FIG: was FIG asked for?
wanted() { case " $figures " in *" $1 "*) return 0 ;; esac; return 1; }

fits=
has 'curve-*.csv' || has 'lop-*.csv' || fits="no curve-*.csv or lop-*.csv (lopfit -o): fitted curves not drawn"

if ! wanted rtt; then :
elif has '*-rtt.csv'; then render rtt "$fits" '*-rtt.csv:p,min_us,avg_us' 'curve-*-rtt-*.csv:p,fit_us' 'lop-*.csv:p'
else skip rtt "no *-rtt.csv (lopbench)"; fi
if ! wanted overhead; then :
elif has '*-os.csv' || has '*-or.csv'; then
    render overhead "$fits" '*-os.csv:p' '*-or.csv:p' 'curve-*-o[sr]-*.csv:p,fit_us' 'lop-*.csv:p'
else skip overhead "no *-os.csv or *-or.csv (lopbench)"; fi
if ! wanted latency; then :
elif has 'lop-*.csv'; then render latency "" 'lop-*.csv:p'
else skip latency "no lop-*.csv (lopfit -o, or lopfit --from-params FILE -o DIR)"; fi
if ! wanted predict; then :
elif has 'predict-cnt*.csv'; then render predict "" 'predict-cnt*.csv:alg,n,p'
else skip predict "no predict-cnt<C>.csv (lopredict --alg all --cnt C --csv)"; fi
if ! wanted ndiss; then :
elif has ndiss.csv; then render ndiss "" ndiss.csv:alg,n,p
else skip ndiss "no ndiss.csv (lopredict --alg ndiss --n 1..10 --csv)"; fi
if ! wanted measured; then :
elif ! has barrier.csv; then skip measured "no barrier.csv (lopbench --barrier)"
elif has measured.csv; then render measured "" barrier.csv:alg,n,p measured.csv:alg,n,p
else render measured "no measured.csv: predictions not drawn" barrier.csv:alg,n,p; fi
if ! wanted pairs; then :
elif has pairs.csv; then render pairs "" pairs.csv
else skip pairs "no pairs.csv (lopbench --pairs)"; fi
if ! wanted hybrid; then :
elif has 'hybrid-*.csv'; then render hybrid "" 'hybrid-*.csv:alg,p'
else skip hybrid "no hybrid-block.csv or hybrid-rr.csv (lopredict --alg all,hybrid --simulate --csv)"; fi
if ! wanted distribution; then :
elif has barrier-hist.csv; then render distribution "" barrier-hist.csv barrier.csv barrier-congested.csv
else skip distribution "no barrier-hist.csv (lopbench --barrier)"; fi
if ! wanted impact; then :
elif has barrier-congested.csv; then render impact "" barrier-congested.csv
else skip impact "no barrier-congested.csv (lopbench --barrier --congest)"; fi

[ "$failed" -eq 0 ] || die "$failed figure(s) failed"
[ "$rendered" -gt 0 ] || die "$data: no data for any figure"
exit 0
