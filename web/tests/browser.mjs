// Shared by the page tests: a static server for web/dist (web/serve.py, with the isolation headers) and
// Debian's headless Chromium with WebGPU on SwiftShader, driven by puppeteer-core.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

// isolation: false serves without the COOP and COEP headers, as a host that cannot set them.
export async function serve({ isolation = true } = {}) {
  const server = spawn('python3', [join(web, 'serve.py'), join(web, 'dist'), '0', ...(isolation ? [] : ['--no-isolation'])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => {
      const m = /(http:\/\/localhost:\d+\/)/.exec(String(d));
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`web/serve.py exited (${code})`)));
  });
  return { url, close: () => server.kill() };
}

// gpu: false opens the page without WebGPU (the CPU path).
export async function launch({ gpu = true } = {}) {
  const args = [
    '--no-sandbox', '--disable-background-networking', '--disable-component-update',
    '--disable-default-apps', '--no-first-run', '--disable-sync', '--metrics-recording-only',
    '--disable-domain-reliability', '--no-default-browser-check', '--window-size=1280,720',
  ];
  // WebGPU on SwiftShader's Vulkan, and the compositor on SwiftShader too: without --use-angle=swiftshader,
  // --enable-gpu and --use-vulkan=swiftshader a WebGPU canvas never presents headless (getCurrentTexture
  // blocks the page), though compute alone works.
  if (gpu) args.push('--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-webgpu-adapter=swiftshader',
    '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--enable-gpu',
    '--use-vulkan=swiftshader');
  else args.push('--disable-webgpu', '--disable-features=WebGPU,Vulkan');
  args.push(...(process.env.CHROMIUM_FLAGS || '').split(' ').filter(Boolean));
  return puppeteer.launch({ executablePath: CHROMIUM, args, headless: true, defaultViewport: { width: 1280, height: 720 }, protocolTimeout: 300000 });
}

// Opens `path` and waits until the page has drawn its first frame; returns the page and the milliseconds
// from navigation start to that frame (the page's own performance.now()). cache: false fetches every file
// again, as a first visit does.
export async function open(browser, url, path = '', { cache = true } = {}) {
  const page = await browser.newPage();
  await page.setCacheEnabled(cache);
  const logs = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  await page.goto(url + path);
  await page.waitForFunction(() => window.nbody && window.nbody.firstFrameMs() >= 0, { timeout: 60000 });
  const firstFrameMs = await page.evaluate(() => window.nbody.firstFrameMs());
  // Then the start-up probe (after the first frame), which may reload the scene at its size.
  await page.waitForFunction(() => window.nbody.settled(), { timeout: 60000 });
  return { page, firstFrameMs, logs };
}
