#!/usr/bin/env bash
# On the GPU machine (the device tool), in the repository root, with .gl (scripts/device-fetch-debs.sh) and
# .webdev (web/device/prepare.sh) carried: the WGSL kernels' rate through Dawn for node over NVIDIA's Vulkan
# driver, each variant in its own process at 18,000 and 131,072 bodies (or the N given), 3 s each, in the
# kernel shape the page chooses there; one line a run in $OUT/web-bench.txt (the shape, interactions/s of the
# median batch). Where nbody-bench's JSON is in $OUT (scripts/device-run.sh bench NAME "--backend gl ..."
# before it), $OUT/web-vs-glsl.txt puts each WGSL row beside the GLSL one. Needs no build: node, dawn.node
# and the page's core travel in .webdev; the Vulkan loader and glvnd come from .gl, before the driver's own
# libraries on the path (../shared/WEB.md: without glvnd the loader cannot get vkCreateInstance from
# libGLX_nvidia.so.0).
# WEB_TREE="cartwheel-1m:1048576 ..." (scene:N) also times the page's tree path (TreeSim: the build in
# WebAssembly, the walk in WGSL), one step at a time, into $OUT/web-tree.txt: each build on the bench's thread
# (its step waits), then the builds in the page's worker (web/device/node_worker.ts), as a browser runs them,
# with each stage waited for and timed and then untimed, one wait a step, as the page steps, then each build on
# the bench's thread by the threaded module on every core (threads=K: as an isolated page's worker builds).
# WEB_TREE_MODES="threads=1 threads=4,untimed ..." runs those modes instead (bench.ts's words; a comma joins two).
# WEB_BUILD="cartwheel-1m:1048576 ..." times the WebAssembly tree build alone on 1, 2, 4, 8 ... threads up to
# the cores, stage by stage, into $OUT/web-build.txt (no GPU: bench.ts's benchBuild).
# Usage: [WEB_SHAPES="ij:4,4,256,16 ..."] [WEB_TREE="scene:N ..."] [WEB_TREE_MODES="..."] [WEB_BUILD="scene:N ..."]
#        scripts/device-web.sh [N...]
set -uo pipefail
OUT=${OUT:-/tmp/nbody-out}
mkdir -p "$OUT"
[ -f .webdev/node.xz ] || { echo "device-web: .webdev missing: run web/device/prepare.sh here and carry .webdev" >&2; exit 1; }
W=/tmp/webdev
if [ ! -x $W/node ]; then
  mkdir -p $W/node_modules/webgpu/dist/linux-x64
  xz -dc .webdev/node.xz > $W/node && chmod +x $W/node
  cp .webdev/webgpu/index.js .webdev/webgpu/package.json $W/node_modules/webgpu/
  xz -dc .webdev/webgpu/dawn.node.xz > $W/node_modules/webgpu/dist/linux-x64/dawn.node
fi
cp .webdev/bench.mjs .webdev/nbody_core.js .webdev/nbody_core.wasm .webdev/tree_build_worker.js .webdev/nbody_threads.* $W/
if compgen -G ".gl/*.deb" >/dev/null; then
  P=/tmp/webpfx
  [ -d $P/usr ] || for f in .gl/*.deb; do dpkg -x "$f" $P; done
  export LD_LIBRARY_PATH=$P/usr/lib/x86_64-linux-gnu:/usr/local/nvidia/lib64:${LD_LIBRARY_PATH:-}
fi
icd=/usr/share/vulkan/icd.d/nvidia_icd.json
[ -z "${VK_ICD_FILENAMES:-}" ] && [ -f $icd ] && export VK_ICD_FILENAMES=$icd
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > "$OUT/web-gpu.txt" 2>&1
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(18000 131072)
rc=0
for n in "${sizes[@]}"; do
  for v in none i ij; do
    $W/node $W/bench.mjs $v "$n" 3 2>&1 | tee -a "$OUT/web-bench.txt" || rc=1
  done
done
# Other shapes beside the chosen ones, as WEB_SHAPES="ij:4,4,256,16 ij:8,4,256,0" (variant:k,u,block,q; q 0
# chosen): one line each in $OUT/web-shapes.txt (the side-by-side keeps to the chosen shapes).
for n in "${sizes[@]}"; do
  for spec in ${WEB_SHAPES:-}; do
    IFS=, read -r k u block q <<< "${spec#*:}"
    $W/node $W/bench.mjs "${spec%%:*}" "$n" 3 "$k" "$u" "$block" "$q" 2>&1 | tee -a "$OUT/web-shapes.txt" || rc=1
  done
done
counts=(); for ((k = 1; k <= $(nproc) && k <= 64; k *= 2)); do counts+=("$k"); done
for spec in ${WEB_BUILD:-}; do
  $W/node $W/bench.mjs build "${spec%%:*}" "${spec#*:}" "${counts[@]}" 2>&1 | tee -a "$OUT/web-build.txt" || rc=1
done
modes=("" async "async untimed" "threads=$(nproc)")
[ -n "${WEB_TREE_MODES:-}" ] && read -ra modes <<< "$WEB_TREE_MODES"
for spec in ${WEB_TREE:-}; do
  for mode in "${modes[@]}"; do
    # shellcheck disable=SC2086
    $W/node $W/bench.mjs tree "${spec%%:*}" "${spec#*:}" 5 ${mode//,/ } 2>&1 | tee -a "$OUT/web-tree.txt" || rc=1
  done
done
if compgen -G "$OUT/bench-*.json" >/dev/null; then
  python3 web/device/side_by_side.py "$OUT/web-bench.txt" "$OUT"/bench-*.json | tee "$OUT/web-vs-glsl.txt"
fi
exit $rc
