// Run by minify-js.mjs on a release build, after the glue is minified: names the explorer's
// worker files (its loader, its glue and its wasm) with a hash of their content, and tells the
// page the loader's name in index.html (<meta name="explorer-worker">). Without it the worker
// kept fixed names, so a page of a newer build could start a worker of an older one from the
// HTTP cache or the service worker: two builds speaking one text protocol (issue 25).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) process.exit(0);

const path = (f) => join(dir, f);
const files = ['explorer.js', 'explorer_bg.wasm', 'explorer_loader.js'];
for (const f of files) if (!existsSync(path(f))) throw new Error(`the explorer's worker has no ${f}`);
const hash = createHash('sha256');
for (const f of files) hash.update(readFileSync(path(f)));
const id = hash.digest('hex').slice(0, 16);
const glue = `explorer-${id}.js`;
const wasm = `explorer-${id}_bg.wasm`;
const loader = `explorer_loader-${id}.js`;

// The loader names its glue and wasm; both must appear exactly as public/explorer_loader.js
// writes them (after terser), or the renamed worker would fetch files that are gone.
let code = readFileSync(path('explorer_loader.js'), 'utf8');
for (const [from, to] of [['./explorer.js', glue], ['./explorer_bg.wasm', wasm]]) {
  if (!code.includes(`"${from}"`)) throw new Error(`explorer_loader.js never names ${from}`);
  code = code.split(`"${from}"`).join(`"./${to}"`);
}
writeFileSync(path(loader), code);
writeFileSync(path(glue), readFileSync(path('explorer.js')));
writeFileSync(path(wasm), readFileSync(path('explorer_bg.wasm')));
for (const f of files) rmSync(path(f));

const htmlPath = path('index.html');
const html = readFileSync(htmlPath, 'utf8');
if (!html.includes('</head>')) throw new Error('index.html has no </head>');
writeFileSync(htmlPath, html.replace('</head>', `<meta name="explorer-worker" content="./${loader}"></head>`));
console.log(`worker: ${loader}, ${glue}, ${wasm}`);
