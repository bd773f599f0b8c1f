// Trunk post_build hook: minifies the wasm-bindgen JS glue of a release build and updates its
// subresource-integrity hash in index.html. (Trunk's own JS minifier cannot parse wasm-bindgen
// 0.2.130's output and ships it unminified; terser saves about 2 KB gzip.)
import { minify } from 'terser';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// First the page's wasm is cut into modules (debug builds too: the uncut page cannot load).
await import('./split.mjs');

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir || process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const htmlPath = join(dir, 'index.html');
let html = readFileSync(htmlPath, 'utf8');
for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
  const path = join(dir, file);
  const code = readFileSync(path);
  const before = sri(code);
  // The page's glue is an ES module with an integrity hash in index.html; the split modules'
  // loader and all the explorer worker's files (split.mjs) are ES modules too (a module
  // worker). register-sw.js is a classic script.
  const module = html.includes(before) || /^(explorer_)?split-[0-9a-f]+\.js$|^explorer(_loader)?-[0-9a-f]+\.js$/.test(file);
  const out = await minify(code.toString('utf8'), { module, compress: true, mangle: true });
  if (!out.code) throw new Error(`terser produced nothing for ${file}`);
  if (!module && file !== 'register-sw.js') {
    throw new Error(`index.html has no integrity ${before} for ${file}`);
  }
  writeFileSync(path, out.code);
  if (module) html = html.split(before).join(sri(Buffer.from(out.code)));
  console.log(`minified ${file}: ${code.length} → ${out.code.length} bytes`);
}
writeFileSync(htmlPath, html);
// Then the Content-Security-Policy, over the final index.html, and the offline service worker
// over the final files.
await import('./csp.mjs');
await import('./offline.mjs');
