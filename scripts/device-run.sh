#!/usr/bin/env bash
# Runs on the GPU machine (the device tool), in the repository root, with .gl and .devdeps carried:
#   scripts/device-run.sh [tests] [gtest FILTER] [sanitize] [sass] [g6] [sapporo6] [soak SECONDS] [bench NAME "ARGS"]... [ncu NAME "NCU-ARGS" "BENCH-ARGS"]...
#                         [ncusource NAME KERNEL-REGEX "BENCH-ARGS"]... [env NAME=VALUE]... [paper] [frames "ARGS"]...
#                         [screenshots] [picture] [metrics NAME "ARGS"]...
#                         [blocksteps SCENE SHARED_DT DT_MAX "ETAS" UNTIL]
# Unpacks the carried Debian packages (GL runtime into /, build dependencies into a prefix), builds the
# release configuration with CUDA for sm_90, then does each task named, writing logs and results under
# $OUT. Fetch the .debs first on the developer machine with scripts/device-fetch-debs.sh.
set -uo pipefail
source scripts/device-env.sh
B=build/device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,utilization.gpu --format=csv > "$OUT/gpu.txt" 2>&1
SECONDS=0
device_build . $B 16 device || exit 1
echo "== built in ${SECONDS} s"
grep -E "registers|spill" "$OUT/build-device.log" | sort | uniq -c | sort -rn | head -5

rc=0
while [ $# -gt 0 ]; do
  case "$1" in
    tests)
      (cd $B && ctest -L gpu --output-on-failure) > "$OUT/gpu-tests.log" 2>&1 || rc=1
      tail -15 "$OUT/gpu-tests.log"
      (cd $B && ctest -L gl --output-on-failure) > "$OUT/gl-tests.log" 2>&1 || rc=1
      grep -E "tests passed|Skipped|Failed" "$OUT/gl-tests.log"
      (cd $B && ctest -L unit --output-on-failure) > "$OUT/unit-tests.log" 2>&1 || rc=1
      tail -3 "$OUT/unit-tests.log" ;;
    gtest)
      # `gtest FILTER`: the gpu test binary on a gtest filter (the tests a change touches, before the whole label).
      $B/tests/gpu/nbody_gpu_tests --gtest_filter="$2" > "$OUT/gtest.log" 2>&1 || rc=1
      grep -E "^\[  (PASSED|FAILED|SKIPPED) |GPU tree, N =" "$OUT/gtest.log" | head -20
      shift ;;
    sanitize)
      f='CudaKernels.*:CudaBackend.ParamChangesApplyWithoutLosingState:CudaParts.*:CudaPrecision.Switching*:HermiteForces.*:HermiteParts.*:HermiteBlock.AgreesWithTheSameSchemeOnTheHost:TensorKernel.*:CudaRewind.*:TreeGpu.*:TreeEngine.*:TreeCellsGpu.*:G6Cuda.*:PairsKernel.*'
      for tool in memcheck racecheck; do
        [ $tool = racecheck ] && f='CudaKernels.*:TensorKernel.FirstEvaluation*:TreeGpu.Walk*'  # ~10x slower: shared-memory kernels only
        NBODY_GPU_TEST_MAX_N=300 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/gpu/nbody_gpu_tests --gtest_filter="$f" \
          > "$OUT/sanitizer-$tool.log" 2>&1
        st=$?
        [ $st -eq 0 ] || rc=1
        echo "compute-sanitizer --tool $tool: exit $st; $(grep -E 'SUMMARY|PASSED|FAILED' "$OUT/sanitizer-$tool.log" | tr '\n' ' ')"
      done ;;
    sass)
      cuobjdump --dump-sass $B/cuda/libnbody_cuda.a > "$OUT/sass.txt" 2>&1
      python3 scripts/sass_per_interaction.py < "$OUT/sass.txt" | tee "$OUT/sass-summary.txt"
      python3 scripts/sass_loops.py tensor_step_kernel HMMA < "$OUT/sass.txt" | tee -a "$OUT/sass-summary.txt"
      python3 scripts/sass_loops.py pairs_kernel SHFL < "$OUT/sass.txt" | tee -a "$OUT/sass-summary.txt" ;;
    bench)
      name=$2; shift 2
      # SM clock and power every 200 ms while it runs: the arithmetic limit scales with the real clock.
      nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 200 \
        > "$OUT/clocks-$name.csv" 2>&1 &
      smi=$!
      # shellcheck disable=SC2086
      $B/nbody-bench $1 --json "$OUT/bench-$name.json" 2>"$OUT/bench-$name.err" | tee "$OUT/bench-$name.txt" || rc=1
      kill $smi 2>/dev/null
      awk -F', ' '{gsub(/ MHz/,"",$2); if ($2 > 1000) {s += $2; n++; if (min == "" || $2 < min) min = $2}}
        END {if (n) printf "SM clock under load: mean %.0f MHz, min %d MHz over %d samples\n", s/n, min, n}' \
        "$OUT/clocks-$name.csv" | tee -a "$OUT/bench-$name.txt" ;;
    soak)
      # tools/soak.cpp for SECONDS of wall time (scene, variant, precision, integrator, method changed every 3 s),
      # GPU memory in use sampled every 10 s beside it: both flat from start to end, and no failure.
      # SOAK_GPUS (`env SOAK_GPUS=2`): every change on that many GPUs.
      secs=$2; shift
      nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader -l 10 > "$OUT/soak-gpu-memory.csv" 2>&1 &
      smi=$!
      $B/nbody-soak "$secs" 3 scenes "${SOAK_GPUS:-1}" > "$OUT/soak.txt" 2>&1 || rc=1
      kill $smi 2>/dev/null
      grep -E "start|end|FAILED|resident" "$OUT/soak.txt" | head -3; tail -2 "$OUT/soak.txt"
      echo "GPU memory used: first $(head -1 "$OUT/soak-gpu-memory.csv"), last $(tail -1 "$OUT/soak-gpu-memory.csv")" ;;
    g6)
      # The GRAPE-6 API's rate (tools/g6_rate.c, every i in batches of g6_npipes) against the native Hermite
      # engine's at nj = N = 131,072, in each precision.
      for prec in ds fp64 fp32; do
        for pipes in 256 1024 2048 16384 65536; do
          NBODY_G6_PRECISION=$prec NBODY_G6_NPIPES=$pipes $B/g6_rate 131072 5 2>&1 | sed "s/^/$prec: /" |
            tee -a "$OUT/g6-rate.txt"
        done
      done
      $B/nbody-bench --sizes 131072 --integrators hermite --precisions ds,fp64,fp32 2>&1 | tee -a "$OUT/g6-rate.txt" ;;
    sapporo6)
      # Sapporo2's sixth-order interface: its GPU tests (CUDA against the CPU reference) and its rate
      # (tools/sapporo6_rate.c, nj = 131,072, ni = 16,384) in both precisions and three batch sizes, beside the
      # native sixth-order engine's evaluation of 16,384 active bodies of 131,072 (the goal: 80% of it).
      $B/tests/gpu/nbody_sapporo6_gpu_tests > "$OUT/sapporo6-gpu-tests.log" 2>&1 || rc=1
      grep -E "worst|PASSED|FAILED|SKIPPED" "$OUT/sapporo6-gpu-tests.log"
      compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/gpu/nbody_sapporo6_gpu_tests \
        > "$OUT/sapporo6-memcheck.log" 2>&1 || rc=1
      grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/sapporo6-memcheck.log"
      for prec in fp64 ds; do
        for pipes in 4096 16384 65536; do
          NBODY_SAPPORO6_DEVICE=cuda NBODY_SAPPORO6_PRECISION=$prec NBODY_SAPPORO6_NPIPES=$pipes \
            $B/sapporo6_rate 131072 16384 5 2>&1 | sed "s/^/$prec npipes $pipes: /" | tee -a "$OUT/sapporo6-rate.txt"
        done
      done
      $B/nbody-bench --sizes 131072 --integrators hermite6-block --precisions fp64,ds --active 16384 2>&1 |
        tee -a "$OUT/sapporo6-rate.txt" ;;
    ncu)
      # Nsight Compute on nbody-bench: `ncu NAME "NCU-ARGS" "BENCH-ARGS"`, the report as text in ncu-NAME.txt
      # (clocks left as they are: --clock-control none).
      name=$2; shift 2
      # shellcheck disable=SC2086
      ncu --clock-control none $1 $B/nbody-bench $2 > "$OUT/ncu-$name.txt" 2>&1 || rc=1
      grep -E "^  [a-z_]+__|Duration|Registers|Issue Slots|Eligible|Achieved Occupancy|Theoretical Occ|Warp Cycles|No Eligible" \
        "$OUT/ncu-$name.txt" | head -60
      shift ;;
    ncusource)
      # `ncusource NAME KERNEL-REGEX "BENCH-ARGS"`: Nsight Compute's source page of the kernel's fourth launch, per
      # SASS instruction (instructions executed, stall samples), as CSV in ncu-NAME-sass.csv, and its heaviest
      # straight-line runs (scripts/ncu_source_top.py) in ncu-NAME-top.txt.
      name=$2 kernel=$3; shift 3
      # shellcheck disable=SC2086
      ncu --clock-control none --set full --import-source yes --kernel-name "regex:$kernel" --launch-skip 3 \
        --launch-count 1 -f -o "/tmp/ncu-$name" $B/nbody-bench $1 > "$OUT/ncu-$name.log" 2>&1 || rc=1
      ncu -i "/tmp/ncu-$name.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu-$name-sass.csv" 2>&1 || rc=1
      python3 scripts/ncu_source_top.py "$OUT/ncu-$name-sass.csv" 40 > "$OUT/ncu-$name-top.txt"
      head -25 "$OUT/ncu-$name-top.txt" ;;
    env)
      # `env NAME=VALUE`: set for the tasks after it (a switch a build reads, for an A/B in one call).
      export "$2"; echo "== $2"
      shift ;;
    picture)
      # The picture's goals (docs/rendering.md): Milky Way-Andromeda's 2,097,152 sprites drawn in <= 3 ms (GL
      # timer queries) and its window >= 60 frames/s; every galaxy scene at 1280x720 at its start and after 300
      # frames clipping <= 0.05% of its pixels while >= 2% is lit; the picture tests on EGL. picture.tgz: images.
      $B/nbody-sandbox --headless --frames 600 milky-way-andromeda > "$OUT/picture-frames.txt" 2>&1 || rc=1
      grep -E "^rendered|render on the GPU" "$OUT/picture-frames.txt"
      mkdir -p /tmp/picture
      for sc in milky-way-andromeda cartwheel cartwheel-1m galaxy-flyby figure8-3 figure8-4; do
        $B/nbody-sandbox --headless --paused --frames 2 --screenshot "/tmp/picture/$sc-start.png" "scenes/$sc.toml" \
          2>&1 | grep "^wrote" | tee -a "$OUT/picture-shots.txt" || rc=1
        $B/nbody-sandbox --headless --frames 300 --screenshot "/tmp/picture/$sc-300.png" "scenes/$sc.toml" \
          2>&1 | grep "^wrote" | tee -a "$OUT/picture-shots.txt" || rc=1
      done
      $B/tests/gl/nbody_gl_tests --gtest_filter='Picture.*' > "$OUT/picture-tests.log" 2>&1 || rc=1
      grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/picture-tests.log"
      tar czf "$OUT/picture.tgz" -C /tmp picture ;;
    metrics)
      # `metrics NAME "ARGS"`: nbody-scene-metrics ARGS (a scene measured on the GPU with --backend cuda) into
      # metrics-NAME.txt.
      name=$2; shift 2
      # shellcheck disable=SC2086
      $B/nbody-scene-metrics $1 > "$OUT/metrics-$name.txt" 2>&1 || rc=1
      tail -4 "$OUT/metrics-$name.txt" ;;
    blocksteps)
      # `blocksteps SCENE SHARED_DT DT_MAX "ETAS" UNTIL`: SCENE with shared leap-frog steps of SHARED_DT and
      # with leapfrog-block (largest step DT_MAX) for each eta, to UNTIL: energy, stepping wall time and tails
      # (metrics-*.txt), and each block run's surface density map against the shared run's (mapdiff.txt).
      # BLOCKSTEPS_ARGS (`env BLOCKSTEPS_ARGS=--alpha=0.002`): more nbody-scene-metrics flags for every run.
      scene=$2 shared=$3 dtmax=$4 etas=$5 until=$6; shift 5
      # shellcheck disable=SC2086
      M="$B/nbody-scene-metrics tails $scene --backend cuda --until $until --every 640 --group 0 --around 1 ${BLOCKSTEPS_ARGS:-}"
      # SHARED_DT "-": the shared run of an earlier blocksteps task in the same call is the reference. BLOCKSTEPS_TAG
      # names the block runs' files apart (`env BLOCKSTEPS_TAG=-m2`).
      if [ "$shared" != "-" ]; then
        $M --integrator leapfrog --dt "$shared" --map "$OUT/map-shared.txt" > "$OUT/metrics-shared.txt" 2>&1 || rc=1
        tail -3 "$OUT/metrics-shared.txt"
      fi
      for eta in $etas; do
        tag="eta$eta${BLOCKSTEPS_TAG:-}"
        echo "== block $tag (dt_max $dtmax)"
        $M --integrator leapfrog-block --dt "$dtmax" --eta "$eta" --map "$OUT/map-$tag.txt" \
          > "$OUT/metrics-$tag.txt" 2>&1 || rc=1
        tail -4 "$OUT/metrics-$tag.txt"
        $B/nbody-scene-metrics mapdiff "$OUT/map-shared.txt" --with "$OUT/map-$tag.txt" | tee -a "$OUT/mapdiff.txt"
      done ;;
    paper)
      $B/nbody-bench --paper --json "$OUT/paper.json" 2>"$OUT/paper.err" | tee "$OUT/paper.txt" || rc=1 ;;
    frames)
      # A headless rendering run (EGL on the GPU): frames/s and the per-frame breakdown, into frames.txt.
      shift
      echo "== nbody-sandbox $1" >> "$OUT/frames.txt"
      # shellcheck disable=SC2086
      $B/nbody-sandbox $1 >> "$OUT/frames.txt" 2>&1 || rc=1 ;;
    screenshots)
      # Every shipped scene (or those in SCREENSHOT_SCENES: `env SCREENSHOT_SCENES="scenes/a.toml scenes/b.toml"`)
      # after 300 frames at 1280x720 and 1920x1080 (docs/gallery.md, slides), as JPEG
      # (quality 88, through the machine's Pillow: the PNGs of 26 galaxy pictures pass the 16 MiB a file that
      # comes back), packed as images.tgz.
      mkdir -p /tmp/images
      for size in 1280x720 1920x1080; do
        for sc in ${SCREENSHOT_SCENES:-scenes/*.toml}; do
          name=$(basename "$sc" .toml)
          $B/nbody-sandbox --headless --frames 300 --width "${size%x*}" --height "${size#*x}" \
            --screenshot "/tmp/images/$name-$size.png" "$sc" >> "$OUT/screenshots.log" 2>&1 ||
            { rc=1; echo "screenshot of $sc at $size failed"; }
        done
      done
      python3 -c 'import sys, pathlib; from PIL import Image
for p in pathlib.Path(sys.argv[1]).glob("*.png"):
    Image.open(p).convert("RGB").save(p.with_suffix(".jpg"), quality=88); p.unlink()' /tmp/images || rc=1
      tar czf "$OUT/images.tgz" -C /tmp images ;;
    *) echo "device-run: unknown task '$1'"; rc=2 ;;
  esac
  shift
done
# The device tool brings back at most 8 files: keep the JSON results and images loose, pack everything else
# (the benchmark printouts too: their tables are in the run's output above).
(cd "$OUT" && tar czf /tmp/logs.tgz --exclude='*.json' --exclude='*.png' --exclude=images.tgz --exclude=picture.tgz . ; \
   find . -maxdepth 1 -type f ! -name '*.json' ! -name '*.png' ! -name images.tgz ! -name picture.tgz -delete; mv /tmp/logs.tgz .)
exit $rc
