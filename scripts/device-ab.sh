#!/usr/bin/env bash
# Before/after on the GPU machine: the same nbody-bench command on a baseline tree and on this one, in
# alternating rounds on one GPU, compared row by row (scripts/bench_compare.py). Carry .gl, .devdeps and
# .baseline (made on the developer machine: git archive REF -- . ':!docs' | gzip > .baseline/NAME.tgz).
#   scripts/device-ab.sh build                 both trees, in parallel (8 jobs each); warm machines keep them
#   scripts/device-ab.sh bench ROUNDS "ARGS"   ROUNDS x (before, after) with nbody-bench ARGS, then the table
#   scripts/device-ab.sh ncu "NCU-ARGS" "ARGS" Nsight Compute on both (kernel durations: give --metrics
#                                              gpu__time_duration.sum), each kernel's mean duration side by side
# Results: $OUT/ab-before-R.json, $OUT/ab-after-R.json, $OUT/ab-compare.txt.
set -uo pipefail
source scripts/device-env.sh
base_src=/tmp/base-src
base_build=/tmp/base-build
new_build=build/device
case "${1:-}" in
  build)
    tgz=$(ls .baseline/*.tgz | head -1)
    rm -rf "$base_src" && mkdir -p "$base_src" && tar xzf "$tgz" -C "$base_src"
    echo "== baseline $tgz"
    SECONDS=0
    device_build "$base_src" "$base_build" 8 base & pb=$!
    device_build . "$new_build" 8 device & pn=$!
    wait $pb; rb=$?; wait $pn; rn=$?
    echo "== built in ${SECONDS} s (baseline exit $rb, this tree exit $rn)"
    exit $((rb || rn)) ;;
  bench)
    rounds=$2 args=$3
    before="" after=""
    for r in $(seq 1 "$rounds"); do
      # shellcheck disable=SC2086
      "$base_build/nbody-bench" $args --json "$OUT/ab-before-$r.json" > "$OUT/ab-before-$r.txt" 2>&1 || echo "baseline round $r failed"
      # shellcheck disable=SC2086
      "$new_build/nbody-bench" $args --json "$OUT/ab-after-$r.json" > "$OUT/ab-after-$r.txt" 2>&1 || echo "round $r failed"
      before+="${before:+,}$OUT/ab-before-$r.json"; after+="${after:+,}$OUT/ab-after-$r.json"
    done
    python3 scripts/bench_compare.py "$before" "$after" | tee "$OUT/ab-compare.txt"
    (cd "$OUT" && tar czf ab-logs.tgz ab-*.txt && rm -f ab-before-*.txt ab-after-*.txt) ;;
  ncu)
    for side in before after; do
      b=$base_build; [ $side = after ] && b=$new_build
      # shellcheck disable=SC2086
      ncu --clock-control none $2 "$b/nbody-bench" $3 > "$OUT/ab-ncu-$side.log" 2>&1 || echo "ncu ($side) failed"
      # The kernel's name line, then its gpu__time_duration.sum line: mean microseconds a kernel name.
      awk -v side=$side '/, Context [0-9]+, Stream/ {k=$0; sub(/^ +/, "", k); sub(/, Context.*/, "", k);
          sub(/ \([0-9, ]+\)x\([0-9, ]+\)$/, "", k)}
        /gpu__time_duration.sum/ {v=$NF; gsub(",", "", v); u=$(NF-1); if (u ~ /^ms/) v*=1000; if (u ~ /^ns/) v/=1000;
          s[k]+=v; n[k]++}
        END {for (k in s) printf "%-6s %5d launches, mean %10.2f us  %s\n", side, n[k], s[k]/n[k], k}' \
        "$OUT/ab-ncu-$side.log" | sort | tee -a "$OUT/ab-ncu.txt"
    done ;;
  *) echo "usage: device-ab.sh build | bench ROUNDS \"ARGS\" | ncu \"NCU-ARGS\" \"ARGS\""; exit 2 ;;
esac
