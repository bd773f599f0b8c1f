// A notes page with four embeds of different scenarios downloads the shared page once: every
// file but index.html is named by its content, so a host that lets the browser cache them
// (here: `immutable` for hashed names, `no-cache` for index.html, as a CDN would be set up)
// serves the page's wasm, glue and CSS once for the four frames, and each scenario's module
// once. The server counts what reaches it. No service worker: the HTTP cache alone.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';

const dist = resolve(fileURLToPath(import.meta.url), '../../../../dist');
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.bin': 'application/octet-stream',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.webmanifest': 'application/manifest+json' };
const SLUGS = ['dual-write', 'refund-cap', 'retry-layers', 'unknown-outcome'];
const NOTES = `<!doctype html><title>My notes</title><h1>Notes</h1>${SLUGS.map((s) =>
  `<iframe src="/?s=${s}&embed=1&lang=en" title="${s}" width="640" height="400"></iframe>`).join('')}`;

function serve() {
  const hits = new Map();
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/notes.html') return res.writeHead(200, { 'content-type': types['.html'] }).end(NOTES);
    const file = path === '/' ? 'index.html' : path.slice(1);
    if (file.includes('..')) return res.writeHead(403).end();
    try {
      const body = await readFile(join(dist, file));
      // The split step's hashes have 16 digits; Trunk's (the CSS) are a u64 in hex, no leading zeros.
      const hashed = /-[0-9a-f]{1,16}(_bg)?\.(wasm|js|css|bin)$/.test(file);
      res.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, hits, port: server.address().port })));
}

test('four embeds of different scenarios fetch the shared page once', async ({ browser }) => {
  const { server, hits, port } = await serve();
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/notes.html`);
    for (const s of SLUGS) {
      await expect(page.frameLocator(`iframe[title="${s}"]`).locator('.counter')).toHaveText(/^Step \d+ of \d+$/, { timeout: 15_000 });
    }
    const count = (re) => [...hits].filter(([p]) => re.test(p)).map(([, n]) => n);
    // Each frame asks for its document; everything else of the page arrives once.
    expect(hits.get('/')).toBe(SLUGS.length);
    for (const shared of [/^\/effectively-once-[0-9a-f]{16}_bg\.wasm$/, /^\/effectively-once-[0-9a-f]{16}\.js$/,
      /^\/main-[0-9a-f]{1,16}\.css$/, /^\/split-[0-9a-f]{16}\.js$/]) {
      expect(count(shared), String(shared)).toEqual([1]);
    }
    // Each scenario's module and its own pack of chunks once; the home page's pack of every
    // scenario's chunks never.
    for (const s of SLUGS) {
      const l = s.replace(/-/g, '_');
      expect(count(new RegExp(`^/split_${l}-[0-9a-f]{16}\\.wasm$`)), s).toEqual([1]);
      expect(count(new RegExp(`^/chunks-${l}-[0-9a-f]{16}\\.bin$`)), s).toEqual([1]);
    }
    expect(count(/^\/chunks-[0-9a-f]{16}\.bin$/)).toEqual([]);
  } finally {
    await context.close();
    server.close();
  }
});
