// Run by the post_build hook minify-js.mjs, last: writes a strict Content-Security-Policy into the
// release build's index.html. Scripts: this origin, WebAssembly compilation, and the inline
// scripts (Trunk's module, the loading shell's language pick) by their SHA-256 hashes (never
// 'unsafe-inline', never eval). Styles: this origin only (the app sets style properties through
// the CSSOM, never style attributes).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir || process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const path = join(dir, 'index.html');
let html = readFileSync(path, 'utf8');
const hashes = [...html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)]
  .filter((m) => m[1].length > 0)
  .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
if (hashes.length === 0) throw new Error('no inline script found in index.html');
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
html = html.replace(/<meta http-equiv=["']?Content-Security-Policy["']? content="[^"]*">/i, '');
const meta = `<meta http-equiv=Content-Security-Policy content="${policy}">`;
if (!/<meta charset=[^>]*>/i.test(html)) throw new Error('index.html has no <meta charset>');
html = html.replace(/(<meta charset=[^>]*>)/i, `$1${meta}`);
writeFileSync(path, html);
console.log(`CSP: ${hashes.length} inline script hash(es)`);
