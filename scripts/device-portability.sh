#!/usr/bin/env bash
# On the GPU machine (the device tool), with .gl and .devdeps carried: the older architectures' code paths and the
# shape model, measured against the sm_90 build on one GPU. Stages (run each in its own call, in this order; a warm
# machine keeps build/arch-*):
#   build     three builds: sm_90 SASS, and PTX only for compute_75 and compute_80 (JIT-compiled by the driver here)
#   tests     the gpu label in each build (JIT cache kept between them)
#   bench     direct auto at 18,000 and 131,072 and the tree at 1,048,576 in each build, alternating rounds; the
#             sm_90 build's auto with the shape model (no table for this GPU) against the measured table
#   fallback  a PTX-only build with the driver's JIT disabled stands for a binary without this GPU's architecture:
#             nbody-sandbox must say so in words and run on the CPU
set -uo pipefail
source scripts/device-env.sh
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/cuda-jit-cache
stage=${1:-build}
# tuned_cache DIR: the built-in (H200-measured) table as this GPU's cache file, the table main's auto runs from here.
tuned_cache() {
  local gpu driver sms file
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  driver=$(sed -n 's/.*Kernel Module  *\([0-9.]*\).*/\1/p' /proc/driver/nvidia/version | head -1)
  sms=$(build/arch-90/nbody-bench --sizes 1000 --variants auto --no-accuracy --seconds 0.01 --repeats 1 2>&1 |
        sed -n 's/.*model of its \([0-9]*\) SMs.*/\1/p' | head -1)
  file="$1/tuning-$(echo "$gpu" | sed 's/[^A-Za-z0-9.-]/-/g')-$driver.txt"
  sed -e "s/^gpu .*/gpu $gpu/" -e "s/^sms .*/sms ${sms:-132}/" -e "s/^driver .*/driver $driver/" \
    src/core/kernels/kernel_tuning_h200.txt > "$file"
}
rc=0
declare -A archs=([90]=90 [75]=75-virtual [80]=80-virtual)
case "$stage" in
  build)
    SECONDS=0
    for a in ${ARCHS:-90 75 80}; do
      device_build . build/arch-$a 16 arch-$a "${archs[$a]}" || rc=1
      echo "== arch $a (${archs[$a]}) built at ${SECONDS} s"
    done
    cat "$OUT"/configure-arch-*.log | grep -E "nbody-sandbox:" ;;
  tests)
    for a in ${ARCHS:-90 75 80}; do
      SECONDS=0
      # One test at a time: some tests take most of the GPU's memory, and one beside them would be refused.
      (cd build/arch-$a && ctest -L gpu --output-on-failure) > "$OUT/gpu-tests-$a.log" 2>&1 || rc=1
      echo "== arch $a: $(grep -E 'tests passed|tests failed' "$OUT/gpu-tests-$a.log") (${SECONDS} s)"
      grep -E "^\s+[0-9]+ - .*(Failed|Not Run)" "$OUT/gpu-tests-$a.log" | head -10
    done ;;
  bench)
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/bench-portability.txt"
    # The measured table for this GPU: the built-in rows under this GPU's key, as main uses them here today.
    export XDG_CACHE_HOME=/tmp/nbody-cache
    for round in 1 2; do
      for a in ${ARCHS:-90 75 80}; do
        for mode in model tuned; do
          [ $a != 90 ] && [ $mode = tuned ] && continue
          rm -rf "$XDG_CACHE_HOME"; mkdir -p "$XDG_CACHE_HOME/nbody-sandbox"
          [ $mode = tuned ] && tuned_cache "$XDG_CACHE_HOME/nbody-sandbox"
          echo "== round $round arch $a $mode" | tee -a "$OUT/bench-portability.txt"
          build/arch-$a/nbody-bench --sizes 18000,131072 --variants auto --no-accuracy --seconds 0.5 --repeats 3 2>&1 |
            grep -vE "^\s*$" | tee -a "$OUT/bench-portability.txt"
          build/arch-$a/nbody-bench --sizes 1048576 --variants auto --no-accuracy --seconds 1 --repeats 2 2>&1 |
            grep -vE "^\s*$" | tee -a "$OUT/bench-portability.txt"
          [ $mode = tuned ] && continue
          build/arch-$a/nbody-bench --sizes 1048576 --methods tree --no-accuracy --seconds 1 --repeats 3 2>&1 |
            grep -vE "^\s*$" | tee -a "$OUT/bench-portability.txt"
        done
      done
    done ;;
  fallback)
    for prog in "build/arch-75/nbody-sandbox --headless --bodies 2048 --steps 5 scenes/plummer.toml" \
                "build/arch-75/nbody-sandbox --headless --backend cuda --bodies 2048 --steps 5 scenes/plummer.toml"; do
      echo "== CUDA_DISABLE_PTX_JIT=1 $prog" | tee -a "$OUT/fallback.txt"
      # shellcheck disable=SC2086
      # No JIT and no JIT cache: the PTX-only build then has nothing this GPU can run.
      CUDA_CACHE_DISABLE=1 CUDA_DISABLE_PTX_JIT=1 $prog >> "$OUT/fallback.txt" 2>&1; echo "exit $?" | tee -a "$OUT/fallback.txt"
    done
    grep -E "no GPU code|falling back|interactions/s|error" "$OUT/fallback.txt" ;;
  *) echo "device-portability.sh: unknown stage $stage" >&2; exit 2 ;;
esac
exit $rc
