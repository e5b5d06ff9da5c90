#!/bin/sh
# mkfixture.sh - regenerate the synthetic fixture data of tests/60-plots.t.
#
#   sh tests/data/plots/mkfixture.sh      (rewrites tests/data/plots/*.csv)
#
# The measurements are the thesis's published Mozart fits (2.3.6.2, 2.3.6.3)
# evaluated at integer p with a little seeded noise; params.csv holds those
# same parameters (so the drawn curves must run through the points) plus a
# least-squares linear fit of every RTT file; the lop-*, predict-*, ndiss,
# barrier and measured files are computed from them.  Nothing here was
# measured: it only has to look like the tools' output.  Receive overheads
# the thesis does not publish (send-inline, rdmaw-*) are made up.
set -eu
OUT=$(cd "$(dirname "$0")" && pwd)
cd "$OUT"
rm -f ./*.csv

# series quantity stat model l1..l6 (thesis 2.3.6.2, 2.3.6.3)
cat >"$OUT/.models" <<'EOF'
send-normal rtt min rtt 22.4558 -0.0140 9.1637 0.0174 -0.0625 101.3065
send-inline rtt min rtt 23.3204 0.1081 9.0502 0.0895 -0.0636 74.6471
send-normal rtt avg rtt 191.6019 -0.0232 35.7292 63.578 0.0034 -43.7788
send-inline rtt avg rtt 424.1248 2.4364 8.4888 -0.4132 -1.6407 1.1077
rdmaw-normal rtt min rtt 16.7937 0.0058 4.4642 4.4751 -0.0642 12.9209
rdmaw-inline rtt min rtt 14.9630 0.0446 3.0074 6.1891 -0.0531 8.2665
rdmaw-normal rtt avg rtt 26.2100 0.0596 13.1499 0.0317 -0.0841 75.1048
rdmaw-inline rtt avg rtt 14.0689 0.0117 11.4724 4.3843 -0.0186 29.1184
send-normal os min ov 0.5150 0.8443 -0.1160
send-inline os min ov 0.5483 0.8830 -0.1316
send-list os min ov 0.1443 1.1528 -0.1657
rdmaw-normal os min ov 0.5557 0.2103 -0.7728
rdmaw-inline os min ov 0.5417 0.5003 -0.4951
rdmaw-list os min ov 0.1803 0.5726 -0.5746
send-normal or min ov 0.5042 0.0871 -0.9037
send-list or min ov 0.1427 0.3284 -0.7437
send-inline or min ov 0.5100 0.0900 -0.9000
rdmaw-normal or min ov 0.2500 0.1500 -0.5000
rdmaw-inline or min ov 0.2400 0.1400 -0.5000
EOF

awk -v out="$OUT" '
function rtt(l, p) { return l[1] / (l[2] + p) + l[3] + l[4] * (1 - exp(l[5] * (p - l[6]))) }
function ov(l, p)  { return l[1] + l[2] / (l[3] + p) }
function model(m, l, p) { return m == "rtt" ? rtt(l, p) : ov(l, p) }
function noise(rel) { return 1 + rel * (2 * rand() - 1) }
function meta(f, q, s) {
    printf "# quantity: %s\n# series: %s\n# transport: verbs\n# device: mlx4_0\n", q, s > f
    printf "# ranks: 41\n# repetitions: 1000\n# timer: rdtscp 2200000000 Hz overhead 24 ticks\n" > f
    printf "# date: 2005-11-01\n# host: mozart-fixture\n# unit: us\n# lopbench: fixture\n" > f
    print "p,n,min_us,avg_us,median_us,p99_us,max_us,stddev_us" > f
}
# fits[key] = model l1..l6 pmin pmax n ssr rmse r2, key = series SUBSEP quantity SUBSEP stat
function addfit(s, q, st, m, l, pmax, ssr, sst, np,   k, i, txt) {
    txt = s "," q "," st "," m "," np ",1," pmax
    for (i = 1; i <= 6; i++) txt = txt "," (i <= (m == "rtt" ? 6 : m == "ov" ? 3 : 2) ? l[i] : "")
    txt = txt "," sprintf("%.6g,%.6g,%.6g", ssr, sqrt(ssr / np), 1 - ssr / sst) ",,,,,,"
    nfit++; fitrow[nfit] = txt
}
BEGIN { srand(20051101) }
{
    key = $1 SUBSEP $2; m[key, $3] = $4
    for (i = 1; i <= 6; i++) lam[key, $3, i] = $(4 + i)
    if (!(key in seen)) { seen[key] = 1; order[++nkey] = key }
}
END {
    for (k = 1; k <= nkey; k++) {
        split(order[k], sq, SUBSEP); s = sq[1]; q = sq[2]
        pmax = q == "rtt" ? 40 : 32
        for (i = 1; i <= 6; i++) { lmin[i] = lam[order[k], "min", i]; lavg[i] = lam[order[k], "avg", i] }
        hasavg = (order[k], "avg") in m
        if (!hasavg) { lavg[1] = 1.25 * lmin[1] + 0.05; lavg[2] = 1.25 * lmin[2]; lavg[3] = lmin[3] }
        mm = m[order[k], "min"]
        f = out "/" s "-" q ".csv"; meta(f, q, s)
        smin = savg = sx = sxx = 0; n = 0
        for (p = 1; p <= pmax; p++) {
            vmin[p] = model(mm, lmin, p) * noise(0.02)
            vavg[p] = model(mm, lavg, p) * noise(0.05)
            if (vavg[p] < vmin[p]) vavg[p] = vmin[p] * 1.02
            printf "%d,1000,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", p, vmin[p], vavg[p],
                (vmin[p] + vavg[p]) / 2, vavg[p] * 1.6, vavg[p] * 3, vavg[p] * 0.2 > f
        }
        close(f)
        for (st = 1; st <= 2; st++) {
            ssr = sst = mean = 0
            for (p = 1; p <= pmax; p++) { y[p] = st == 1 ? vmin[p] : vavg[p]; mean += y[p] / pmax }
            for (i = 1; i <= 6; i++) ls[i] = st == 1 ? lmin[i] : lavg[i]
            for (p = 1; p <= pmax; p++) {
                r = y[p] - model(mm, ls, p); ssr += r * r
                sst += (y[p] - mean) ^ 2
            }
            addfit(s, q, st == 1 ? "min" : "avg", mm, ls, pmax, ssr, sst, pmax)
            if (q != "rtt") continue
            # the linear (LogP) shape by least squares: y = a + b p
            sx = sy = sxx = sxy = 0
            for (p = 1; p <= pmax; p++) { sx += p; sy += y[p]; sxx += p * p; sxy += p * y[p] }
            lin[2] = (pmax * sxy - sx * sy) / (pmax * sxx - sx * sx); lin[1] = (sy - lin[2] * sx) / pmax
            ssr = 0
            for (p = 1; p <= pmax; p++) ssr += (y[p] - lin[1] - lin[2] * p) ^ 2
            addfit(s, q, st == 1 ? "min" : "avg", "linear", lin, pmax, ssr, sst, pmax)
        }
    }
    f = out "/params.csv"
    print "# lopfit: fixture (thesis 2.3.6 parameters, synthetic data)" > f
    print "file,series,quantity,stat,model,n,pmin,pmax,l1,l2,l3,l4,l5,l6,ssr,rmse,r2,se1,se2,se3,se4,se5,se6" > f
    for (i = 1; i <= nfit; i++) {
        split(fitrow[i], c, ",")
        print c[1] "-" c[2] ".csv," fitrow[i] > f
    }
}' "$OUT/.models"
rm -f "$OUT/.models"

# The LoP view of each series (lopfit's lop-<series>-<stat>.csv, thesis 2.3.4):
# L(p) = RTT(p)/2 - (o_s(p) + o_s(1)), L^list(p) = RTT(p)/2 - (p o_s^list(p) + o_s^list(1)).
# awk code shared by the programs below: read params.csv's rtt and ov fits into
# M[series, quantity, stat] (the model) and L[..., i] (the lambdas); ev(k, p).
FITS='
function ev(k, p) {
    if (M[k] == "rtt") return L[k, 1] / (L[k, 2] + p) + L[k, 3] + L[k, 4] * (1 - exp(L[k, 5] * (p - L[k, 6])))
    return L[k, 1] + L[k, 2] / (L[k, 3] + p)
}
/^#/ || $1 == "file" { next }
$5 != "linear" { k = $2 SUBSEP $3 SUBSEP $4; M[k] = $5; for (i = 1; i <= 6; i++) L[k, i] = $(8 + i) }
'
awk -F, -v out="$OUT" "$FITS"'
END {
    split("send-normal send-inline rdmaw-normal rdmaw-inline", ser, " ")
    for (i = 1; i <= 4; i++) for (st = 1; st <= 2; st++) {
        s = ser[i]; stat = st == 1 ? "min" : "avg"; split(s, op, "-")
        f = out "/lop-" s "-" stat ".csv"
        printf "# series: %s\n# stat: %s\n# params: params.csv\n# unit: us\n", s, stat > f
        print "p,rtt_us,os_us,or_us,L_us,Llist_us" > f
        r = s SUBSEP "rtt" SUBSEP stat; o = s SUBSEP "os" SUBSEP stat
        rr = s SUBSEP "or" SUBSEP stat; li = op[1] "-list" SUBSEP "os" SUBSEP stat
        for (p = 1; p <= 32; p++) {
            Lp = ev(r, p) / 2 - (ev(o, p) + ev(o, 1))
            ll = (li in M) ? sprintf("%.4f", ev(r, p) / 2 - (p * ev(li, p) + ev(li, 1))) : ""
            orc = (rr in M) ? sprintf("%.4f", ev(rr, p)) : ""
            printf "%d,%.4f,%.4f,%s,%.4f,%s\n", p, ev(r, p), ev(o, p), orc, Lp, ll > f
        }
        close(f)
    }
}' "$OUT/params.csv"

# lopredict --alg ... --p 2..64 --cnt C --csv, from the rdmaw-inline minimum fits
# (thesis 2.3.7.1; LogP here is the same formula with o(1), L(1) held constant).
awk -F, -v out="$OUT" "$FITS"'
function o(p) { return logp ? ev(OS, 1) : ev(OS, p) }
function lat(p) { return logp ? ev(R, 1) / 2 - 2 * ev(OS, 1) : ev(R, p) / 2 - (ev(OS, p) + ev(OS, 1)) }
function clog(b, p,   r, x) { r = 0; x = 1; while (x < p) { x *= b; r++ } return r }
function cost(a, n, p, c,   r, rb) {
    if (a == "cc") { ROUNDS = 2; return o(c) + (p - 1) * lat((p - 1) * c) + o((p - 1) * c) + (p - 1) * lat((p - 1) * c) }
    rb = clog(2, p)
    if (a == "tour") { ROUNDS = 2 * rb; return 2 * rb * (o(c * rb) + lat(c * rb)) }
    if (a == "comb") { r = clog(n, p); ROUNDS = r + rb
        return r * (o(c * r) + (n - 1) * lat((n - 1) * c * r)) + rb * (o(c * rb) + lat(c * rb)) }
    r = clog(n + 1, p); ROUNDS = r
    return r * (n * o(n * c * r) + n * lat(n * c * r))
}
/^#/ || $1 == "file" { next }
END {
    R = "rdmaw-inline" SUBSEP "rtt" SUBSEP "min"; OS = "rdmaw-inline" SUBSEP "os" SUBSEP "min"
    nalg = split("cc:,comb:4,tour:,diss:,ndiss:2,ndiss:3", algs, ",")
    split("2 5000", cnts, " ")
    for (ci = 1; ci <= 2; ci++) {
        f = out "/predict-cnt" cnts[ci] ".csv"
        printf "# lopredict: fixture\n# params: params.csv\n# series: rdmaw-inline\n# stat: min\n# cnt: %s\n", cnts[ci] > f
        print "alg,n,p,rounds,logp_us,lop_us" > f
        for (a = 1; a <= nalg; a++) {
            split(algs[a], an, ":"); n = an[2] == "" ? 1 : an[2]
            for (p = 2; p <= 64; p++) {
                logp = 1; lp = cost(an[1], n, p, cnts[ci]); logp = 0; lo = cost(an[1], n, p, cnts[ci])
                printf "%s,%s,%d,%d,%.4f,%.4f\n", an[1], an[2], p, ROUNDS, lp, lo > f
            }
        }
        close(f)
    }
    f = out "/ndiss.csv"
    printf "# lopredict: fixture\n# params: params.csv\n# series: rdmaw-inline\n# stat: min\n# cnt: 5000\n" > f
    print "alg,n,p,rounds,logp_us,lop_us" > f
    split("16 64 256", ps, " ")
    for (i = 1; i <= 3; i++) for (n = 1; n <= 10; n++) {
        logp = 1; lp = cost("ndiss", n, ps[i], 5000); logp = 0; lo = cost("ndiss", n, ps[i], 5000)
        printf "ndiss,%d,%d,%d,%.4f,%.4f\n", n, ps[i], ROUNDS, lp, lo > f
    }
    close(f)
    # measured.csv: the predictions lopredict --measured joins to barrier.csv
    f = out "/measured.csv"
    print "alg,n,p,rounds,logp_us,lop_us" > f
    for (a = 1; a <= nalg; a++) for (p = 2; p <= 4; p += 2) {
        split(algs[a], an, ":"); n = an[2] == "" ? 1 : an[2]
        logp = 1; lp = cost(an[1], n, p, 1000); logp = 0; lo = cost(an[1], n, p, 1000)
        printf "%s,%s,%d,%d,%.4f,%.4f\n", an[1], an[2], p, ROUNDS, lp, lo > f
    }
    close(f)
}' "$OUT/params.csv"

# lopbench --barrier: executors p2p and shm and the MPI_Barrier baseline at P = 2 and 4
awk -v out="$OUT" 'BEGIN {
    srand(4242); f = out "/barrier.csv"
    printf "# executors: p2p,shm,mpi\n# ranks: 4\n# oversubscribed: no\n# timer: rdtscp 2200000000 Hz\n# unit: us\n" > f
    print "executor,alg,n,p,reps,min_us,avg_us,median_us,p99_us,max_us" > f
    nalg = split("cc:,comb:4,tour:,diss:,ndiss:2,ndiss:3", algs, ",")
    split("p2p:1.6 shm:0.45", ex, " ")
    for (p = 2; p <= 4; p += 2) {
        for (e = 1; e <= 2; e++) for (a = 1; a <= nalg; a++) {
            split(ex[e], eb, ":"); split(algs[a], an, ":")
            base = eb[2] * (an[1] == "cc" ? 2 * (p - 1) : an[1] == "tour" ? 2 * log(p) / log(2) : \
                   an[1] == "comb" ? 3 : log(p) / log(2)) * (1 + 0.3 * rand())
            printf "%s,%s,%s,%d,1000,%.4f,%.4f,%.4f,%.4f,%.4f\n", eb[1], an[1], an[2], p,
                base * 0.8, base, base * 0.95, base * 1.9, base * 6 > f
        }
        b = 2.1 * log(p) / log(2)
        printf "mpi,mpi,,%d,1000,%.4f,%.4f,%.4f,%.4f,%.4f\n", p, b * 0.8, b, b * 0.95, b * 1.9, b * 6 > f
    }
}'
ls -l "$OUT"
