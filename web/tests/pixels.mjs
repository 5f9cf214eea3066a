// Screenshots measured in the page itself (the browser decodes the PNG, so the tests need no image library):
// the lit pixels, and the pixels two screenshots disagree on.

// A screenshot of the picture alone: the canvas, without the overlays drawn over it (legend, PAUSED), which
// would count as lit.
export async function pictureShot(page) {
  await page.evaluate(() => document.querySelectorAll('#legend, #paused, #banner').forEach((e) => (e.style.visibility = 'hidden')));
  const box = await (await page.$('#canvas')).boundingBox();
  const png = await page.screenshot({ clip: box, encoding: 'base64' });
  await page.evaluate(() => document.querySelectorAll('#legend, #paused, #banner').forEach((e) => (e.style.visibility = '')));
  return png;
}

// lit: pixels with a channel 16 levels or more above the empty sky (the desktop's measure, docs/rendering.md),
// the sky being the commonest colour; clipped: pixels with a channel at 255 (the desktop's too); bright: pixels
// with a channel at 192 or more; top: the brightest channel of any pixel, and peak: where it first is; excess:
// how far the brightest channel rises above the sky's, on average over the picture (the light drawn); differ: pixels with a channel 16 levels or more from `other`'s;
// around: the same excess within `near.r` pixels of (`near.x`, `near.y`), a disc about a core.
export async function pixelStats(page, png, other = null, near = null) {
  return page.evaluate(async (a, b, near) => {
    const rgba = async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const c = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      c.drawImage(bitmap, 0, 0);
      return c.getImageData(0, 0, bitmap.width, bitmap.height);
    };
    const image = await rgba(a), p = image.data, q = b ? (await rgba(b)).data : null, width = image.width;
    const counts = new Map();
    for (let i = 0; i < p.length; i += 4) {
      const key = (p[i] << 16) | (p[i + 1] << 8) | p[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    const sky = [...counts.entries()].reduce((m, e) => (e[1] > m[1] ? e : m))[0];
    const s = [sky >> 16, (sky >> 8) & 255, sky & 255];
    const skyTop = Math.max(...s);
    let lit = 0, differ = 0, clipped = 0, bright = 0, top = -1, peak = null, excess = 0, nearSum = 0, nearCount = 0;
    for (let i = 0; i < p.length; i += 4) {
      if (p[i] >= s[0] + 16 || p[i + 1] >= s[1] + 16 || p[i + 2] >= s[2] + 16) ++lit;
      const brightest = Math.max(p[i], p[i + 1], p[i + 2]);
      const x = (i / 4) % width, y = Math.floor(i / 4 / width);
      if (brightest > top) top = brightest, peak = { x, y };
      const above = Math.max(0, brightest - skyTop);
      excess += above;
      if (near && (x - near.x) ** 2 + (y - near.y) ** 2 <= near.r ** 2) nearSum += above, ++nearCount;
      if (brightest === 255) ++clipped;
      if (brightest >= 192) ++bright;
      if (q && (Math.abs(p[i] - q[i]) >= 16 || Math.abs(p[i + 1] - q[i + 1]) >= 16 || Math.abs(p[i + 2] - q[i + 2]) >= 16)) ++differ;
    }
    const pixels = p.length / 4;
    return { pixels, lit, differ, clipped, bright, top, peak, excess: excess / pixels, around: nearCount ? nearSum / nearCount : null, sky: s };
  }, png, other, near);
}
