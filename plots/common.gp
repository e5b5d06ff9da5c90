# common.gp - shared set-up of the lop figures; loaded by every plots/*.gp.
#
# The loading script sets before loading:
#   fig    its name ("rtt"), used for the default output and in messages
#   here   the directory of the scripts (for the awk helpers)
#   width, height   picture size in pixels (optional)
# The user sets with gnuplot -e (all optional):
#   dir    the data directory (default ".")
#   term   png (pngcairo, default), svg or pdf (pdfcairo)
#   out    the output file (default ./<fig>.<term>)

# ---- options
if (!exists("dir")) dir = "."
if (!exists("term")) term = "png"
if (!exists("out")) out = fig . "." . term
if (!exists("width")) width = 900
if (!exists("height")) height = 600

# sh(s): s quoted for the shell (paths are passed to awk, grep, ls)
sh(s) = "'" . s . "'"
# Does path name a readable file / a directory?
readable(path) = system("test -r " . sh(path) . " && test -f " . sh(path) . " && echo 1") eq "1"
isdir(path) = system("test -d " . sh(path) . " && echo 1") eq "1"
# A metadata value ("# key: value") of a CSV, or "".
meta(path, key) = system("sed -n 's/^# " . key . ": *//p' " . sh(path) . " 2>/dev/null | head -n 1")
# ordered(words): the words with the known series first, in the thesis's order.
SERIES_ORDER = "send-normal send-inline send-list rdmaw-normal rdmaw-inline rdmaw-list"
ordered(list) = system("for s in " . list . "; do echo $s; done | " . \
    "awk -v order=" . sh(SERIES_ORDER) . " '{ k = index(\" \" order \" \", \" \" $0 \" \"); " . \
    "printf \"%04d %s\\n\", k ? k : 9999, $0 }' | sort | cut -d' ' -f2 | tr '\\n' ' '")
# The names of dir's files matching a glob with prefix/suffix cut off, ordered:
# names("*-rtt.csv", "", "-rtt.csv") = "send-normal send-inline rdmaw-normal ..."
names(glob, pre, suf) = ordered(system("cd " . sh(dir) . " 2>/dev/null && for f in " . glob . \
    "; do [ -f \"$f\" ] && f=${f#" . pre . "} && echo ${f%" . suf . "}; done | tr '\\n' ' '"))
# clause(list, text): ", text" when list has words, else "" -- a plot iteration
# over an empty list still runs once in gnuplot, so plot commands are assembled
# from clauses and run with eval.
clause(list, text) = words(list) ? ", " . text : ""
# range_of(glob, cols): "MIN MAX" of the positive numbers in the columns cols
# (e.g. "min_us,avg_us") of the files matching glob (a shell word: sh(dir) . "/*-rtt.csv")
range_of(glob, cols) = system("for f in " . glob . "; do awk -F, -f " . sh(here . "/csvsel.awk") . \
    " -v cols=" . cols . " \"$f\"; done 2>/dev/null | awk -F, -f " . sh(here . "/range.awk"))
# yaxis(range): a command for the y axis of data in range ("MIN MAX"): logarithmic
# when they span a factor of 4 or more, with 1-2-5 tics up to 4 decades and
# gnuplot's decade tics beyond; else linear.
yaxis(r) = real(word(r, 1)) > 0 && real(word(r, 2)) >= 4 * real(word(r, 1)) ? \
    "set logscale y; set ytics " . (real(word(r, 2)) > 1e4 * real(word(r, 1)) ? "autofreq" : LOGTICS) : \
    "unset logscale y; set ytics autofreq"
# Predictions: LoP evaluated far beyond its fitted p range can give huge or
# infinite times (lopredict warns).  A y axis of predictions reaches at most
# PRED_CAP times LogP's largest time; pred_top(r, rlogp) is that top for data in
# range r and LogP's in rlogp.  n_off(f, col, where, hi) counts the rows of f
# (matching where) whose col is not a finite number or above hi;
# off_note(n, f, where) says so in a panel title (escaped, a second line).
PRED_CAP = 100
pred_top(r, rlogp) = real(word(rlogp, 2)) > 0 && real(word(r, 2)) > PRED_CAP * real(word(rlogp, 2)) ? \
    PRED_CAP * real(word(rlogp, 2)) : real(word(r, 2))
n_rows(f, where) = int(system("awk -F, -f " . sh(here . "/csvsel.awk") . " -v where=" . sh(where) . " " . \
    sh(f) . " | tail -n +2 | wc -l"))
n_off(f, col, where, hi) = int(system("awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=" . col . \
    " -v where=" . sh(where) . " " . sh(f) . " | tail -n +2 | awk -v hi=" . sprintf("%.17g", hi) . \
    " '!($1 ~ /^[ \t]*[-+]?[0-9.]+([eE][-+]?[0-9]+)?[ \t]*$/) || $1 + 0 > hi { n++ } END { print n + 0 }'"))
off_note(n, f, where) = n == 0 ? "" : sprintf("\n{/*0.8 %d of %d times off scale or not finite (extrapolated)}", \
    n, n_rows(f, where))
# csvsel(file, columns, where): the selected columns of a lop CSV as a gnuplot data source
csvsel(f, cols, where) = "< awk -F, -f " . sh(here . "/csvsel.awk") . " -v cols=" . sh(cols) . \
    " -v where=" . sh(where) . " " . sh(f)

# ops_of("send-normal rdmaw-inline ..."): the operations ("send rdmaw") in order;
# series_of(list, op): the series of list that belong to op.
opof(s) = strstrt(s, "-") ? s[1:strstrt(s, "-") - 1] : s
ops_of(list) = system("for s in " . list . "; do echo ${s%%-*}; done | awk '!seen[$0]++' | tr '\\n' ' '")
series_of(list, op) = system("for s in " . list . "; do [ ${s%%-*} = " . op . " ] && echo $s; done | tr '\\n' ' '")
# provenance(file): "transport T, host H" from a lopbench CSV's metadata, escaped
# for enhanced text (a second title line), or "".
enh(s) = system("printf '%s' " . sh(s) . " | sed 's/[_^@&~{}]/\\\\&/g'")
provenance(f) = enh((meta(f, "transport") eq "" ? "" : "transport " . meta(f, "transport")) . \
    (meta(f, "host") eq "" ? "" : ", host " . meta(f, "host")) . \
    (meta(f, "oversubscribed") eq "yes" ? ", oversubscribed (more ranks than cores)" : ""))
# predicted_by(f): "series S STAT of DIR/params.csv", the parameter set named in
# lopredict's metadata (# series:, # stat:, # params:), escaped, or "".
short(path) = system("printf '%s' " . sh(path) . " | awk -F/ '{ print (NF > 2 ? $(NF - 1) \"/\" $NF : $0) }'")
predicted_by(f) = enh((meta(f, "series") eq "" ? "" : "series " . meta(f, "series") . " " . meta(f, "stat")) . \
    (meta(f, "params") eq "" ? "" : " of " . short(meta(f, "params"))))
# plabel(f, dflt): the x label "p (what p counts)" from the "# p:" metadata of f
plabel(f, dflt) = "p (" . (meta(f, "p") eq "" ? dflt : meta(f, "p")) . ")"
# title2(main, sub): a two-line figure title, the second line smaller
title2(main, sub) = sub eq "" ? main : main . "\n{/*0.7 " . sub . "}"

if (!isdir(dir)) {
    print sprintf("%s: %s: no such directory", fig, dir)
    exit status 1
}

# ---- terminal: same look in every format
set encoding utf8
if (term eq "png") {
    set terminal pngcairo size width, height enhanced font "sans,10" linewidth 1.2
} else { if (term eq "svg") {
    set terminal svg size width, height enhanced font "sans,10" linewidth 1.2 background "white"
} else { if (term eq "pdf") {
    set terminal pdfcairo size width / 96.0, height / 96.0 enhanced font "sans,7" linewidth 1.2
} else {
    print sprintf("%s: term '%s': expected png, svg or pdf", fig, term)
    exit status 1
}}}
# Scripts 'set output out' only after checking their inputs: a failed figure
# leaves no empty file behind.

set datafile separator comma
# CSV headers are read because every plot names its columns ("p", column("bar")); no
# "set datafile columnheaders": it would eat the first sample of the "+" pseudo-file.
set datafile missing ""
set grid back lc rgb "#dddddd" lw 0.8
set key box opaque samplen 3.5 spacing 1.1 font ",9"
# log axes: tics at 1, 2, 5 of every decade
LOGTICS = "(0.01,0.02,0.05,0.1,0.2,0.5,1,2,5,10,20,50,100,200,500,1000,2000,5000,1e4,2e4,5e4,1e5,2e5,5e5,1e6)"
set border lw 1
set tics nomirror
set mxtics default
set samples 400

# ---- colours: one per series (post method), shared by every figure
scolor(s) = s eq "send-normal"  ? "#1f5fa8" : s eq "send-inline"  ? "#d1462f" : \
            s eq "send-list"    ? "#2a9d3f" : s eq "rdmaw-normal" ? "#6a3d9a" : \
            s eq "rdmaw-inline" ? "#e08a00" : s eq "rdmaw-list"   ? "#17a2b8" : \
            word("#444444 #b15928 #8c564b #e377c2 #7f7f7f #bcbd22", 1 + int(strlen(s)) % 6)
# a palette for curves that are not series (algorithms, P values, executors)
array PALETTE[16] = ["#1f5fa8", "#d1462f", "#2a9d3f", "#6a3d9a", "#e08a00", "#17a2b8", \
                     "#8c564b", "#e377c2", "#555555", "#bcbd22", "#003f5c", "#ff7c43", \
                     "#6b8e23", "#c71585", "#1a1a80", "#b15928"]
pcolor(i) = PALETTE[1 + (i - 1) % |PALETTE|]

# ---- fitted curves: drawn from lopfit's -o files, never from a formula here
# (one definition of each model: src/model.h).  curve-<series>-<q>-<stat>.csv
# holds a fit densely over its p range (column fit_us); lop-<series>-<stat>.csv
# holds the derived quantities at every integer p (rtt_us, os_us, or_us, L_us,
# Llist_us).  Both carry the 95 % interval (empty without covariance) and
# 'extrapolated'; curve.awk turns either into "p,in,out,lo,hi".
curvefile(s, q, st) = dir . "/curve-" . s . "-" . q . "-" . st . ".csv"
tablefile(s, st) = dir . "/lop-" . s . "-" . st . ".csv"
# fit_src(s, q, st) / fit_col(s, q, st): the file and column that hold the
# fitted q of series s, statistic st: the curve file, else the table's q_us
fit_src(s, q, st) = readable(curvefile(s, q, st)) ? curvefile(s, q, st) : tablefile(s, st)
fit_col(s, q, st) = readable(curvefile(s, q, st)) ? "fit_us" : q . "_us"
# fit_data(s, q, st): that curve as a gnuplot data source: columns 1 p, 2 the
# fit inside the fitted range, 3 the extrapolated parts, 4, 5 the 95 % interval
fit_data(s, q, st) = "< awk -F, -f " . sh(here . "/curve.awk") . " -v y=" . fit_col(s, q, st) . \
    " " . sh(fit_src(s, q, st))
# with_fit(list, q, st, mode): the series of list whose fitted q (st) has a
# value (mode "has"), a 95 % band (mode "band") or a single p (mode "one")
with_fit(list, q, st, mode) = system("d=" . sh(dir) . "; for s in " . list . "; do " . \
    "f=$d/curve-$s-" . q . "-" . st . ".csv; y=fit_us; [ -f \"$f\" ] || { f=$d/lop-$s-" . st . ".csv; y=" . q . "_us; }; " . \
    "[ -f \"$f\" ] && [ \"$(awk -F, -f " . sh(here . "/curve.awk") . " -v mode=" . mode . \
    " -v y=$y \"$f\" 2>/dev/null)\" = 1 ] && echo $s; done | tr '\\n' ' '")
# Clauses of a plot command for the series of list (see clause()): the band
# of each series in bl (fill), the fitted line of each in fl, solid inside the
# fitted range and dashed (dt 2) where extrapolated, drawn 'with' lines (or
# linespoints for the tables' integer p), a fit of one p as a cross and its
# interval as an error bar; 'style' adds line options (lw ...), 'ttl' the
# title of the solid part ("notitle" or a title clause).
BAND_FILL = "fs transparent solid 0.18 noborder"
band_clause(bl, q, st) = clause(bl, 'for [s in "' . bl . '"] fit_data(s, "' . q . '", "' . st . \
    '") using 1:4:5 with filledcurves ' . BAND_FILL . ' lc rgb scolor(s) notitle')
line_clause(fl, q, st, with, style, ttl) = clause(fl, 'for [s in "' . fl . '"] fit_data(s, "' . q . '", "' . st . \
    '") using 1:2 with ' . with . ' ' . style . ' lc rgb scolor(s) ' . ttl) . \
    clause(fl, 'for [s in "' . fl . '"] fit_data(s, "' . q . '", "' . st . \
    '") using 1:3 with ' . with . ' ' . style . ' dt 2 lc rgb scolor(s) notitle') . \
    one_clause(with_fit(fl, q, st, "one"), q, st)
one_clause(ol, q, st) = clause(ol, 'for [s in "' . ol . '"] fit_data(s, "' . q . '", "' . st . \
    '") using 1:6:4:5 with yerrorbars pt 2 ps 1.5 lw 1.2 lc rgb scolor(s) notitle')
# fit_clauses(list, q, st, style, ttl): band and line clauses of every series
# of list that has a fitted q
fit_clauses(list, q, st, style, ttl) = band_clause(with_fit(list, q, st, "band"), q, st) . \
    line_clause(with_fit(list, q, st, "has"), q, st, "lines", style, ttl)

# ---- plot commands are assembled as strings and run by @RUN, which also
# appends them to the file 'cmdlog' when it is set (gnuplot -e "cmdlog='F'"):
# the tests read what was drawn there.
#   CMD = "plot ..."; @RUN
RUN = 'if (exists("cmdlog")) { set print cmdlog append; print CMD; unset print }; eval CMD'
# fit_key(bands, extrapolated): key entries for the 95 % band and the dashed
# extrapolated parts (the latter only where the figure can have them)
fit_key(b, x) = (b ? ', NaN with filledcurves ' . BAND_FILL . ' lc rgb "black" title "95 % interval"' : '') . \
    (x ? ', NaN with lines dt 2 lc rgb "black" title "extrapolated"' : '')
