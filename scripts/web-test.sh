#!/usr/bin/env bash
# The web edition's tests (docs/web.md): builds web/dist (scripts/web.sh --build-only), then the URL parser's
# property test and the kernel shapes on the built core (node --test), and the page in Debian's headless
# Chromium with WebGPU on SwiftShader (web/tests/page.mjs: forces of each WGSL variant and of other kernel
# shapes against the C++ float64 reference, every shipped scene,
# the panels, located errors, the page without WebGPU; screenshots in web/tests/out/). About 3 minutes on
# two cores. In CI (CI=true) it installs what is missing; elsewhere, without chromium or emcc, it says so and
# skips.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v em++ >/dev/null || missing+=(emscripten)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${CI:-}" != true ]; then
    echo "web-test: skipped: ${missing[*]} not installed (apt-get install ${missing[*]}; CI installs them)"
    exit 0
  fi
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${missing[@]}" ||
    { $sudo apt-get update && $sudo apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${missing[@]}"; }
fi
scripts/web.sh --build-only
cd web
npx --no-install esbuild src/url_state.ts --format=esm --outfile=dist-test/url_state.mjs --log-level=warning
npx --no-install esbuild tests/shape_node.ts --bundle --platform=node --format=esm --outfile=dist-test/shape_node.mjs --log-level=warning
node --test tests/
timeout 900 node tests/page.mjs
