#!/usr/bin/env bash
# On the GPU machine, after scripts/device-run.sh has built build/device: can the window (GLFW + GLX) run on
# NVIDIA's OpenGL there? Writes $OUT/glx.txt: what the machine has for GLX (an X server, NVIDIA's X driver and
# GLX server module, the GLX client libraries), then each attempt and its output.
#   NVIDIA's GL through GLX needs an X server that loads nvidia_drv.so and libglxserver_nvidia.so; Xvfb has
#   only Mesa's software GLX, so under Xvfb the best case is llvmpipe (and no CUDA-GL interop).
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
    Xvfb :77 -screen 0 1600x900x24 +extension GLX > "$OUT/xvfb.log" 2>&1 &
    xs=$!
    sleep 2
    for vendor in nvidia mesa; do
      echo "== DISPLAY=:77 __GLX_VENDOR_LIBRARY_NAME=$vendor nbody-sandbox --frames 120 scenes/cartwheel.toml"
      DISPLAY=:77 __GLX_VENDOR_LIBRARY_NAME=$vendor timeout 60 $B/nbody-sandbox --frames 120 --json "$OUT/glx-$vendor.json" \
        scenes/cartwheel.toml 2>&1 | tail -15
      echo "exit $?"
    done
    kill $xs 2>/dev/null
    echo "== Xvfb log:"; tail -20 "$OUT/xvfb.log"
  else
    echo "== no Xvfb: nothing to start a GLX window on"
  fi
} > "$log" 2>&1
cat "$log"
