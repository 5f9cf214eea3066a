#!/usr/bin/env bash
# On the developer machine: gathers what scripts/device-web.sh needs on the GPU machine (no node, no npm
# there) into .webdev/ (ignored by git; name it in the device tool's carry beside .gl from
# scripts/device-fetch-debs.sh): this machine's node and Dawn for node's linux-x64 build (npm `webgpu`,
# pinned in web/device/package-lock.json), both xz-packed (about 13 MB), the WGSL bench bundled from
# web/device/bench.ts with the page's own kernels, and the page's C++ core (web/core/build.sh; the bench asks
# it for the kernel shapes, as the page does).
set -euo pipefail
cd "$(dirname "$0")/../.."
exclude=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$exclude")"
grep -qx '/.webdev/' "$exclude" 2>/dev/null || echo /.webdev/ >> "$exclude"
(cd web/device && npm ci --no-audit --no-fund)
(cd web && npm ci --no-audit --no-fund >/dev/null)  # esbuild
(cd web && npx --no-install tsc --noEmit -p device)  # the bench, its loader and the page's sources it bundles
web/core/build.sh
web/node_modules/.bin/esbuild web/device/bench.ts --bundle --platform=node --format=esm --target=node18 \
  --external:webgpu --outfile=web/device/out/bench.mjs --log-level=warning
rm -rf .webdev && mkdir -p .webdev/webgpu
xz -T2 -6 -c "$(command -v node)" > .webdev/node.xz
cp web/device/node_modules/webgpu/index.js web/device/node_modules/webgpu/package.json .webdev/webgpu/
xz -T2 -6 -c web/device/node_modules/webgpu/dist/linux-x64/dawn.node > .webdev/webgpu/dawn.node.xz
cp web/device/out/bench.mjs web/dist/nbody_core.js web/dist/nbody_core.wasm web/dist/tree_build_worker.js web/dist/nbody_threads.* .webdev/
du -sh .webdev
