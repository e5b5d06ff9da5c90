#!/bin/sh
# 34-lopredict-hybrid.t - --alg hybrid end to end: --schedule output passes
# --check-schedule, --simulate is never above the best flat algorithm on the
# same costs, --costs + --placement gives what --topology gives, --best and
# --hybrid-report include it, and its one-line errors.
. "$(dirname "$0")/lib.sh"
tmpdir >/dev/null
T=$_d
B=$BIN/lopredict
M="--topology 8x2x4 --level-L 3.0,0.8,0.2 --level-o 0.5,0.3,0.1 --or 0 --g 0"
S="--simulate --model logp --csv"

# --schedule: a checked schedule the checker accepts again.
for map in block rr; do
    "$B" --schedule --alg hybrid --p 22 $M --map $map >"$T/h-$map.csv"
    check "--schedule --alg hybrid P = 22 $map passes --check-schedule" \
        sh -c "'$B' --check-schedule '$T/h-$map.csv' | grep -q 'a barrier: P = 22'"
    check "--schedule --alg hybrid $map records its choices" grep -q '^# hybrid: ' "$T/h-$map.csv"
done
a=$("$B" --check-schedule "$T/h-block.csv" --simulate --model logp $M | sed -n 's/.*simulated logp: \(.*\) us/\1/p')
"$B" --alg hybrid --p 22 $S $M >"$T/h22.csv"
b=$(csvcol "$T/h22.csv" sim_us | sed -n 's/^hybrid,//p')
check "the written schedule simulates as --simulate says ($a = $b us)" test "$a" = "$b"

# A flat winner the simulator generates from rank 0's ops (bfly, XOR; diss,
# shift; nwise n = 2 with a fold, digits) is written with every rank's ops.
U="--topology 3x3x3 --level-L 1,1,1 --level-o 1,1,1 --g 0"
for pw in "16 bfly" "12 diss" "18 nwise(n=2)"; do
    p=${pw% *} w=${pw#* }
    "$B" --schedule --alg hybrid --p $p $U >"$T/hg$p.csv"
    a=$("$B" --check-schedule "$T/hg$p.csv" --simulate --model logp $U | sed -n 's/.*simulated logp: \(.*\) us/\1/p')
    b=$("$B" --alg hybrid --p $p $U $S | grep '^hybrid,' | cut -d, -f11)
    check "P = $p: flat $w written whole, a checked barrier simulating as --simulate says ($a = $b us)" \
        sh -c "grep -qx '# hybrid: flat:$w' '$T/hg$p.csv' && test '$a' = '$b' && test -n '$a'"
done

# Never above the best flat algorithm, P = 2..64, both placements.
for map in block rr; do
    "$B" --alg all,hybrid --p 2..64 $S $M --map $map >"$T/all-$map.csv"
    csvcol "$T/all-$map.csv" p | cut -d, -f2 >"$T/p-$map"
    csvcol "$T/all-$map.csv" sim_us | paste -d, - "$T/p-$map" >"$T/sim-$map"
    # rows alg,sim_us,p (cost-only barriers have no sim_us); every P needs both times
    worse=$(awk -F, '$2 == "" { next } { if ($1 == "hybrid") h[$3] = $2 + 0; else if (!($3 in f) || $2 + 0 < f[$3]) f[$3] = $2 + 0 }
        END { for (p in h) if (!(p in f) || h[p] > f[p]) n++; print n + 0 }' "$T/sim-$map")
    rows=$(awk -F, '$1 == "hybrid" && $2 != ""' "$T/sim-$map" | wc -l | tr -d ' ')
    check "$map: hybrid <= best flat at every P = 2..64 ($rows rows, $worse worse)" \
        test "$rows" = 63 -a "$worse" = 0
done

# --costs + --placement: the same hybrid as --topology.
"$B" --alg diss --p 64 $S $M --write-costs "$T/pairs.csv" >/dev/null
{
    echo "# lopbench: test"
    echo "rank,host,socket,numa,core"
    r=0
    while [ $r -lt 64 ]; do
        echo "$r,node$((r / 8)),$((r / 4 % 2)),$((r / 4 % 2)),$((r % 4))"
        r=$((r + 1))
    done
} >"$T/placement.csv"
"$B" --alg hybrid --p 48 $S $M >"$T/t48.csv"
"$B" --alg hybrid --p 48 $S --costs "$T/pairs.csv" --placement "$T/placement.csv" --or 0 --g 0 >"$T/c48.csv"
t=$(csvcol "$T/t48.csv" sim_us | sed -n 's/^hybrid,//p')
c=$(csvcol "$T/c48.csv" sim_us | sed -n 's/^hybrid,//p')
check "--costs + --placement = --topology at P = 48 ($c = $t us)" test -n "$t" -a "$c" = "$t"

# --hybrid-report: search <= greedy and <= flat, per row.
"$B" --hybrid-report --csv --p 2..64 $M --map rr >"$T/report.csv"
bad=$(awk -F, '/^[0-9]/ { if ($7 + 0 > $6 + 0 || $7 + 0 > $5 + 0 || $8 + 0 < 0) n++ } END { print n + 0 }' "$T/report.csv")
check "--hybrid-report: hybrid_us <= greedy_us and flat_us, gain_us >= 0 (63 rows, $bad bad)" \
    sh -c "test \$(grep -c '^[0-9]' '$T/report.csv') -eq 63 && test $bad -eq 0"
# The choices hold commas ("node:nwise(n=2,full)"): quoted (RFC 4180), every row 15 fields.
short=$(grep '^[0-9]' "$T/report.csv" | sed 's/"[^"]*"/x/g' | awk -F, 'NF != 15' | wc -l)
check "--hybrid-report --csv: choices with a comma quoted, every row 15 fields ($short not)" \
    sh -c "grep -q ',\"node:nwise(n=2,full)\",' '$T/report.csv' && test $short -eq 0"
check "--best with per-pair costs includes the hybrid" \
    sh -c "'$B' --best --model logp --alg all,hybrid --p 32 $M --csv | grep -q '^32,logp,hybrid,'"
check "--best with per-pair costs: LogP implied, no --model needed" \
    sh -c "'$B' --best --alg all,hybrid --p 32 $M --csv | grep -q '^32,logp,hybrid,'"
# Without --or the hybrid's receives cost their pair's o, never the shipped set's o_r.
"$B" --hybrid-report --p 16 --topology 8x2x4 --level-L 3.0,0.8,0.2 --level-o 0.5,0.3,0.1 >"$T/or.txt"
E="--topology 2x2x2 --level-L 5,5,5 --level-o 1,1,1 --alg hybrid --p 8 --simulate --csv"
a=$("$B" $E | csvcol /dev/stdin sim_us)
b=$("$B" $E --or 1 | csvcol /dev/stdin sim_us)
c=$("$B" $E --or 0 | csvcol /dev/stdin sim_us)
check "the hybrid's receives cost the level's o: as --or 1, not as --or 0 ($a, $b, $c)" \
    test -n "$a" -a "$a" = "$b" -a "$a" != "$c"
check "--hybrid-report without --or: '# machine:' says o_r comes from the levels" \
    grep -qx '# machine: L, o_s, o_r from --topology 8x2x4 block (per level); g from the default 0 (thesis 2.1.4.5: g << o)' "$T/or.txt"
"$B" --goal --alg hybrid --p 16 $M >"$T/h.goal"
check "--goal --alg hybrid writes 16 rank blocks" test "$(grep -c '^rank [0-9]* {$' "$T/h.goal")" -eq 16
"$B" --alg hybrid --p 16 $S $M --hybrid-algs cc,tour >"$T/ct.csv"
check "--hybrid-algs limits the candidates" grep -q '^hybrid,' "$T/ct.csv"

# Errors: one line, nothing on stdout.
refuses_one_line "hybrid without per-pair costs" 2 "option --alg: hybrid needs per-pair costs" \
    "$B" --alg hybrid --p 8 $S
refuses_one_line "hybrid with --costs but no levels" 2 "needs the levels of the ranks: --placement FILE" \
    "$B" --alg hybrid --p 8 $S --costs "$T/pairs.csv"
refuses_one_line "--placement without --costs" 2 "option --placement: needs --costs FILE" \
    "$B" --alg hybrid --p 8 $S $M --placement "$T/placement.csv"
refuses_one_line "--placement without hybrid" 2 "option --placement: only with --alg hybrid" \
    "$B" --alg diss --p 8 $S --costs "$T/pairs.csv" --placement "$T/placement.csv"
refuses_one_line "--verify --alg hybrid" 2 "option --verify: hybrid has no closed form" \
    "$B" --alg hybrid --p 8 --verify $M
refuses_one_line "--hybrid-algs of a cost-only barrier" 2 "option --hybrid-algs: 'hwnet' is not a schedule" \
    "$B" --alg hybrid --p 8 $S $M --hybrid-algs diss,hwnet
refuses_one_line "--hybrid-algs of the hybrid itself" 2 "option --hybrid-algs: 'hybrid' is not a schedule" \
    "$B" --alg hybrid --p 8 $S $M --hybrid-algs diss,hybrid
printf 'rank,host,socket,numa,core\n0,a,0,0,0\n1,a,0,0,1\n1,b,0,0,0\n' >"$T/dup.csv"
refuses_one_line "placement.csv with a repeated rank" 2 "dup.csv:4: a second row for rank 1" \
    "$B" --alg hybrid --p 2 $S --costs "$T/pairs.csv" --placement "$T/dup.csv"
printf 'rank,host,socket,numa,core\n0,a,0,0,0\n1,b,0,0,0\n' >"$T/two.csv"
refuses_one_line "P beyond the placement" 2 "option --p: P = 4, but --placement" \
    "$B" --alg hybrid --p 4 $S --costs "$T/pairs.csv" --placement "$T/two.csv"
# The hybrid is proved from its parts (hybrid_prove: at 1024x2x512 the
# checker on the whole would refuse it, too costly); where the whole
# is cheap the checker runs on it too, and the report says which.
"$B" --hybrid-report --csv --p 32 $M >"$T/proof.csv"
check "--hybrid-report's proof: rule+checker at P = 32 (greedy wins)" \
    test "$(grep '^32,' "$T/proof.csv" | awk -F, '{ print $NF }')" = "rule+checker"
"$B" --alg hybrid --p 32 $M --simulate --timing 2>&1 >/dev/null | grep '^lopredict: hybrid' >"$T/proof.err"
check "--timing says how it is known a barrier" grep -q '; a barrier by rule+checker; ' "$T/proof.err"

done_testing
