#!/usr/bin/env bash
# Builds the page into web/dist/: the C++ core as WebAssembly (core/build.sh), the TypeScript bundled by
# esbuild (type-checked by tsc first), index.html, style.css and the desktop's colour maps. Needs emcc
# (Debian's emscripten) and web/node_modules (npm ci); scripts/web.sh installs both.
set -euo pipefail
cd "$(dirname "$0")"
core/build.sh
npx --no-install tsc --noEmit -p .
npx --no-install esbuild src/main.ts --bundle --format=esm --target=es2022 --minify --outfile=dist/app.js --log-level=warning
# The tree build's worker (src/tree_build_worker.ts): a classic script of its own, which importScripts the core.
npx --no-install esbuild src/tree_build_worker.ts --bundle --format=iife --target=es2022 --minify --outfile=dist/tree_build_worker.js --log-level=warning
mkdir -p dist/colormaps
# _headers: the isolation headers for hosts that read the file (Netlify, Cloudflare Pages): WebAssembly threads.
cp index.html style.css _headers dist/
cp ../assets/colormaps/*.txt dist/colormaps/
echo "web/dist: $(du -sk dist | cut -f1) kB in all"
