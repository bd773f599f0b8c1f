// A static server for dist/ that compresses like a real host (GitHub Pages, any CDN): gzip for
// HTML, CSS, JS, JSON, SVG and wasm when the browser accepts it. Benchmarks (Lighthouse, frame and
// latency tools) measure the site as it is served, and python's http.server sends the 896 KB wasm
// uncompressed, which no host does. Usage: node tools/serve.mjs <dir> [port=8081]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(process.argv[2] ?? '../../dist');
const port = Number(process.argv[3] ?? 8081);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.bin': 'application/octet-stream', // the scenarios' shared chunks (split.mjs)
};
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.svg', '.json', '.webmanifest', '.bin']);
const gzipped = new Map(); // path -> { mtime, body }

createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let path = normalize(join(root, decodeURIComponent(url.pathname)));
    if (path !== root && !path.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    let info = await stat(path).catch(() => null);
    if (info?.isDirectory()) {
      path = join(path, 'index.html');
      info = await stat(path).catch(() => null);
    }
    if (!info) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const ext = extname(path);
    const headers = { 'content-type': types[ext] ?? 'application/octet-stream', 'cache-control': 'no-cache' };
    let body = await readFile(path);
    if (compressible.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      const cached = gzipped.get(path);
      if (cached && cached.mtime === info.mtimeMs) {
        body = cached.body;
      } else {
        body = gzipSync(body, { level: 9 });
        gzipped.set(path, { mtime: info.mtimeMs, body });
      }
      headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  } catch (e) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e));
  }
}).listen(port, '127.0.0.1', () => console.log(`serving ${root} (gzip) at http://127.0.0.1:${port}/`));
