// A static server that sends every file gzip -9 (as a CDN would), for Lighthouse runs
// (BENCHMARKS.md, "Scenarios on demand, built"): node serve-gzip.mjs <dist> <port>
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, extname } from 'node:path';
import { gzipSync, constants } from 'node:zlib';
const [dir, port] = [process.argv[2], Number(process.argv[3])];
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.bin': 'application/octet-stream', '.webmanifest': 'application/manifest+json' };
const cache = new Map();
createServer((req, res) => {
  let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (p.endsWith('/')) p += 'index.html';
  const f = join(dir, p);
  if (!existsSync(f) || !statSync(f).isFile()) { res.writeHead(404); return res.end(); }
  if (!cache.has(f)) cache.set(f, gzipSync(readFileSync(f), { level: constants.Z_BEST_COMPRESSION }));
  res.writeHead(200, { 'content-type': types[extname(f)] ?? 'application/octet-stream', 'content-encoding': 'gzip', 'cache-control': 'no-cache' });
  res.end(cache.get(f));
}).listen(port, '127.0.0.1');
