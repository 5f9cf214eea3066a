#!/usr/bin/env bash
# Builds the desktop's C++ core (scenes, generators, parameter registry, reference force, diagnostics, the
# camera's framing) as WebAssembly with Debian's emscripten: web/dist/nbody_core.js and nbody_core.wasm (the
# browser compiles the wasm while it downloads). Objects are cached in web/core/build/ and
# rebuilt when their source or a header is newer (-MMD depfiles).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$here/build
mkdir -p "$out" "$root/web/dist"
export NODE_PATH=/usr/share/nodejs  # emcc's node tools need Debian's acorn
# Debian's header-only libraries (toml++, glm) after emscripten's own headers; no std::ranges, no float to_chars.
flags=(-std=c++20 -O2 -fexceptions -I"$root/src" -I"$root/include" -idirafter /usr/include
       -DGLM_FORCE_CXX17 -Wno-unused-command-line-argument)
sources=(
  src/scene/generators.cpp src/scene/disk_galaxy.cpp src/scene/orbits.cpp src/scene/orbit_guides.cpp src/scene/scene.cpp
  src/scene/toml_reader.cpp src/scene/component_reader.cpp src/scene/scene_file.cpp src/scene/analysis.cpp
  src/scene/scene_checks.cpp src/scene/ring_kinematics.cpp src/scene/group_labels.cpp src/scene/eddington.cpp
  src/scene/scene_names.cpp src/io/tipsy.cpp
  src/core/enums/backend_kind.cpp src/core/enums/precision.cpp src/core/rows/param_checks.cpp
  src/core/backend/backend.cpp src/core/physics/state.cpp src/core/rows/sim_params.cpp src/core/rows/param_registry.cpp src/core/rows/force_method.cpp
  src/core/rows/integrator.cpp src/core/kernels/kernel_config.cpp src/core/kernels/kernel_family.cpp src/core/physics/diagnostics.cpp
  src/core/index_range.cpp src/core/physics/force_reference.cpp src/core/tree/tree_params.cpp
  src/core/kernels/gpu_limits.cpp src/gl_backend/gl_shape.cpp src/core/tree/cell_boxes.cpp
  src/core/backend/integrator_state.cpp src/core/physics/block_underflow.cpp src/core/backend/backend_snapshots.cpp
  src/cpu/reference_force.cpp src/cpu/force_f32.cpp src/cpu/cpu_backend.cpp src/cpu/force_modes.cpp
  src/cpu/hermite_integrator.cpp src/cpu/block_steps.cpp
  src/cpu/cpu_backend_state.cpp src/cpu/cpu_forces.cpp src/cpu/cpu_force_evaluators.cpp
  src/cpu/direct_evaluator.cpp src/cpu/tree/tree_evaluator.cpp src/cpu/leapfrog_integrator.cpp
  src/cpu/leapfrog_block_integrator.cpp src/cpu/tree/cpu_tree.cpp src/cpu/tree/tree_build.cpp
  src/cpu/tree/tree_multipoles.cpp src/cpu/tree/tree_walk.cpp src/cpu/tree/tree_eval.cpp
  src/render/camera.cpp web/core/js_arrays.cpp web/core/nbody_web.cpp web/core/shape_web.cpp
  web/core/cpu_backend_web.cpp)
# Sources the scene reader and the CPU backend need on later trees (scene components' look, units and their
# words, the tree's sub-step rule): built where present.
for src in src/core/physics/physical_units.cpp src/core/physics/unit_words.cpp src/scene/component_look.cpp src/core/tree/sub_step_rule.cpp; do
  [ -f "$root/$src" ] && sources+=("$src")
done
sources+=(web/core/tree_web.cpp)  # the tree the WGSL walk reads
sources+=(src/core/session/auto_step.cpp)  # the shared step for scenes made for block steps
# How the window draws a scene: group colours, the speed colour bar's words (web/core/look_web.cpp).
sources+=(src/render/colormap.cpp src/render/colour_scale.cpp web/core/look_web.cpp)
sources+=(web/core/tone_map_web.cpp)  # the desktop's tone map as numbers for the WGSL twin
sources+=(web/core/view_controls_web.cpp)  # the View panel's exposure and glow: ranges and defaults
# The CPU work again with threads (nbody_threads.*): the CPU backend and the tree build with what they call,
# compiled with -pthread into objects of their own (atomics and shared memory: the two builds' objects do not
# link together).
threaded=(web/core/js_arrays.cpp web/core/cpu_backend_web.cpp web/core/tree_web.cpp)
for src in "${sources[@]}"; do
  case $src in src/cpu/* | src/core/*) threaded+=("$src") ;; esac
done
compile() {  # $1: objects' folder, $2: source relative to the root, then flags; skipped when its object and
             # every header it read are newer
  local dir=$1 src=$2 obj=$1/$(echo "$2" | tr / _).o
  shift 2
  # -print -quit, not a pipe into grep -q: under pipefail, find killed by SIGPIPE would read as "nothing newer".
  if [[ -f $obj && -f $obj.d && -z $(find $(sed -e 's/^[^:]*://' -e 's/\\$//' "$obj.d") -newer "$obj" -print -quit 2>/dev/null) ]]; then
    return 0
  fi
  em++ "${flags[@]}" "$@" -MMD -MF "$obj.d" -c "$root/$src" -o "$obj"
}
jobs=${WEB_JOBS:-2}
pids=()
start() {  # runs compile "$@" beside at most $jobs others
  compile "$@" &
  pids+=($!)
  if (( ${#pids[@]} >= jobs )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
}
mkdir -p "$out/threads"
for src in "${sources[@]}"; do start "$out" "$src"; done
for src in "${threaded[@]}"; do start "$out/threads" "$src" -pthread; done
for p in "${pids[@]}"; do wait "$p"; done
objs=() threaded_objs=()
for src in "${sources[@]}"; do objs+=("$out/$(echo "$src" | tr / _).o"); done
for src in "${threaded[@]}"; do threaded_objs+=("$out/threads/$(echo "$src" | tr / _).o"); done
# web,worker: the page and the tree build's worker (web/src/tree_build_worker.ts) each load an instance.
em++ -O2 -fexceptions --bind "${objs[@]}" -o "$root/web/dist/nbody_core.js" \
  -sMODULARIZE=1 -sEXPORT_NAME=createNbodyCore -sENVIRONMENT=web,worker \
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB --embed-file "$root/scenes@/scenes"
echo "web/dist/nbody_core.{js,wasm}: $(cat "$root"/web/dist/nbody_core.* | wc -c) bytes"
# The pool holds Module.threads workers, made and loaded before the module is ready (threads_web.hpp); strict:
# a thread past them fails at once instead of waiting on a worker that cannot start. node: the web tests
# compare it with nbody_core, and the GPU machine's bench times its builds.
em++ -O2 -fexceptions -pthread --bind "${threaded_objs[@]}" -o "$root/web/dist/nbody_threads.js" \
  -sMODULARIZE=1 -sEXPORT_NAME=createNbodyThreads -sENVIRONMENT=web,worker,node \
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sPTHREAD_POOL_SIZE='Module.threads||1' \
  -sPTHREAD_POOL_SIZE_STRICT=2 -Wno-pthreads-mem-growth
echo "web/dist/nbody_threads.{js,wasm,worker.js}: $(cat "$root"/web/dist/nbody_threads.* | wc -c) bytes"
