#!/bin/sh
# mkfixture.sh - the figure tests' made-up lopbench --barrier --congest run
# (tests/64-plots-congest.t): barrier.csv, barrier-congested.csv and
# barrier-hist.csv in the formats of README.md "Data formats" (src/fmt_barrier.c
# writes them), P = 4 timed ranks of executor p2p and MPI_Barrier, 100
# repetitions, incast background traffic from 4 more ranks.  The times are
# drawn from a fixed pseudo-random sequence (no MPI run, the same files on
# every machine): isolated a log-normal around each algorithm's time,
# congested slower with a heavier tail, as Petrini et al. (figures 11, 12)
# measured.  The statistics follow src/stats.c (quantiles interpolated
# between order statistics, as GSL's), impact_avg and impact_p99 divide the
# congested row by its isolated one, and each histogram group's counts sum
# to reps.
#   sh tests/data/congest/mkfixture.sh [DIR]     (default: the script's directory)
set -eu
dir=${1:-$(cd "$(dirname "$0")" && pwd)}
awk -v dir="$dir" '
function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return (seed + 0.5) / 2147483648 }
# a standard normal deviate (Box-Muller)
function gauss() { return sqrt(-2 * log(rnd())) * cos(6.283185307179586 * rnd()) }
function q(f,   i, j, v) {
    i = int((n - 1) * f); j = i + 1 < n ? i + 1 : i
    return t[i] + ((n - 1) * f - i) * (t[j] - t[i])
}
function sort(   i, j, v) {
    for (i = 1; i < n; i++) { v = t[i]; for (j = i - 1; j >= 0 && t[j] > v; j--) t[j + 1] = t[j]; t[j + 1] = v }
}
function meta(f, cond) {
    print "# lopbench: 0.1.0" > f
    print "# quantity: barrier" > f
    print "# ranks: 8" > f
    print "# oversubscribed: no" > f
    print "# repetitions: " REPS > f
    print "# host: fixture" > f
    print "# unit: us" > f
    print "# congest: incast, 4 of 8 ranks congest (ranks 4-7), 4096 bytes, window 8, at most 100000000 messages each" > f
    print "# congest_cores: separate" > f
    print "# congest_traffic: 812345 messages, 3327365120 bytes sent by the congestors in the congested phase; stopped by the timed ranks" > f
    print "# condition: " cond > f
}
# one group: REPS times of (e, s, a, nn) under condition c; its row and histogram
function group(e, s, a, nn, base, spread, c, slow, tail,   i, sum, k, k0, k1, cnt, f) {
    n = REPS; sum = 0
    for (i = 0; i < n; i++) {
        t[i] = base * slow * exp(spread * gauss())
        if (rnd() < tail) t[i] *= 3 + 10 * rnd()
        sum += t[i]
    }
    sort()
    key = e SUBSEP a SUBSEP nn
    row = sprintf("%s,%s,%s,%s,4,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%s", e, s, a, nn, n,
        t[0], sum / n, q(0.5), q(0.9), q(0.99), q(0.999), t[n - 1], c)
    if (c == "isolated") {
        iso_avg[key] = sum / n; iso_p99[key] = q(0.99)
        print row ",," > (dir "/barrier.csv")
    } else {
        printf "%s,%.6f,%.6f\n", row, (sum / n) / iso_avg[key], q(0.99) / iso_p99[key] > (dir "/barrier-congested.csv")
    }
    # bins [10^(k/10), 10^((k+1)/10)) from the smallest time to the largest
    split("", cnt)
    k0 = k1 = ""
    for (i = 0; i < n; i++) {
        k = int(10 * log(t[i]) / log(10) + 1e6) - 1e6
        cnt[k]++
        if (k0 == "" || k < k0) k0 = k
        if (k1 == "" || k > k1) k1 = k
    }
    for (k = k0; k <= k1; k++)
        printf "%s,%s,%s,%s,4,%s,%.6f,%.6f,%d\n", e, s, a, nn, c, 10 ^ (k / 10), 10 ^ ((k + 1) / 10), cnt[k] + 0 > (dir "/barrier-hist.csv")
}
BEGIN {
    REPS = 100; seed = 20261123
    cols = "executor,series,alg,n,p,reps,min_us,avg_us,median_us,p90_us,p99_us,p999_us,max_us,condition,impact_avg,impact_p99"
    meta(dir "/barrier.csv", "isolated"); print cols > (dir "/barrier.csv")
    meta(dir "/barrier-congested.csv", "congested:incast"); print cols > (dir "/barrier-congested.csv")
    h = dir "/barrier-hist.csv"
    print "# lopbench: 0.1.0" > h
    print "# quantity: barrier" > h
    print "# host: fixture" > h
    print "# bins: 10 per decade, edges 10^(k/10) us; counts of the slowest-mean rank'"'"'s per-iteration times (the rank of avg_us)" > h
    print "# unit: us" > h
    print "executor,series,alg,n,p,condition,lo_us,hi_us,count" > h
    # executor, series, alg, n (0: none, an empty cell), isolated time, spread, congested slow-down, tail
    ng = split("p2p send-normal cc 0 9 0.15 1.6 0.05 " \
               "p2p send-normal tour 0 11 0.2 2.2 0.08 " \
               "p2p send-normal diss 0 6 0.25 3.5 0.15 " \
               "p2p send-normal ndiss 2 5 0.3 6 0.25 " \
               "mpi - MPI_Barrier 0 4 0.4 2.5 0.1", g, " ") / 8
    for (i = 0; i < ng; i++) {
        e = g[8 * i + 1]; s = g[8 * i + 2] == "-" ? "" : g[8 * i + 2]
        a = g[8 * i + 3]; nn = g[8 * i + 4] == "0" ? "" : g[8 * i + 4]
        group(e, s, a, nn, g[8 * i + 5], g[8 * i + 6], "isolated", 1, 0.02)
        group(e, s, a, nn, g[8 * i + 5], g[8 * i + 6] * 1.5, "congested:incast", g[8 * i + 7], g[8 * i + 8])
    }
}'
