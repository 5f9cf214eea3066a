#!/usr/bin/env bash
# On the GPU machine, after scripts/device-run.sh has built build/device: can the window (GLFW + GLX) run on
# NVIDIA's OpenGL there? Writes $OUT/glx.txt: what the machine has for GLX (an X server, NVIDIA's X driver and
# GLX server module, the GLX client libraries), then each attempt and its output.
#   Xvfb's GLX extension comes from Mesa (libgl1-mesa-dri and LLVM in .xvfb: scripts/device-fetch-debs.sh
#   --window); with __GLX_VENDOR_LIBRARY_NAME=nvidia the program's GLX client is NVIDIA's library, which renders
#   on the GPU. Each run prints the renderer string, how positions reach GL (CUDA-GL interop or why not) and
#   frames/s, and saves a screenshot, panels included.
OUT=${OUT:-/tmp/nbody-out}
B=build/device
log="$OUT/glx.txt"
{
  echo "== X servers on PATH:"; command -v Xorg Xvfb X 2>&1
  echo "== NVIDIA X driver and GLX server module:"
  find / -xdev \( -name 'nvidia_drv.so*' -o -name 'libglxserver_nvidia.so*' \) 2>/dev/null | head
  echo "== GLX / EGL client libraries:"
  ls /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64 2>/dev/null | grep -E 'GLX|EGL_nvidia|glcore' | sort -u
  if [ -d .xvfb ]; then
    # Xvfb looks for xkbcomp and the keymaps at their installed paths: unpack into / (a throwaway machine).
    for f in .xvfb/*.deb; do dpkg -x "$f" /; done
    ldconfig
    # Its libraries beyond these (freetype, png, X client libraries) are in the build prefix device-run made.
    export LD_LIBRARY_PATH=/tmp/pfx/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  fi
  if command -v Xvfb >/dev/null; then
    Xvfb :77 -screen 0 1280x720x24 +extension GLX > "$OUT/xvfb.log" 2>&1 &
    xs=$!
    sleep 2
    # NVIDIA's GL: the Cartwheel for 600 frames, then a million bodies (a step a frame); Mesa's llvmpipe for
    # comparison, 120 frames. Extra window runs, 300 frames each: GLX_EXTRA="ARGS; ARGS; ..." (e.g. the tree at
    # a million bodies); GLX_ONLY_EXTRA=1 runs those alone.
    runs=("nvidia cartwheel 600 scenes/cartwheel.toml" "nvidia cartwheel-1m 60 scenes/cartwheel.toml --bodies 1048576"
          "mesa cartwheel 120 scenes/cartwheel.toml")
    [ -n "${GLX_ONLY_EXTRA:-}" ] && runs=()
    IFS=';' read -ra extras <<< "${GLX_EXTRA:-}"
    for k in "${!extras[@]}"; do
      [ -n "${extras[$k]// /}" ] && runs+=("nvidia extra$((k + 1)) 300 ${extras[$k]}")
    done
    for run in "${runs[@]}"; do
      # shellcheck disable=SC2086
      set -- $run
      vendor=$1 name=$2 frames=$3; shift 3
      echo "== DISPLAY=:77 __GLX_VENDOR_LIBRARY_NAME=$vendor nbody-sandbox $* --frames $frames (1280x720)"
      DISPLAY=:77 __GLX_VENDOR_LIBRARY_NAME=$vendor timeout 150 $B/nbody-sandbox "$@" --frames "$frames" \
        --width 1280 --height 720 --screenshot "$OUT/window-$vendor-$name.png" 2>&1 | tail -8
      echo "exit ${PIPESTATUS[0]}"
    done
    kill $xs 2>/dev/null
    echo "== Xvfb log:"; tail -20 "$OUT/xvfb.log"
  else
    echo "== no Xvfb: nothing to start a GLX window on"
  fi
} > "$log" 2>&1
cat "$log"
