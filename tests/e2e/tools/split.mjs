// Run first by the post_build hook minify-js.mjs: cuts the page's wasm into the page's own
// module and one module per scenario and per optional part, fetched when first shown, and the
// explorer's worker into its own module and one per scenario, fetched when first explored
// (issue 25).
//
// Trunk builds the page with feature `split` and the worker with `split-worker` (index.html):
// every scenario sits behind a `#[wasm_split]` loader (src/scenarios.rs), and build.rs links
// the wasm with its relocations kept. Trunk cannot run the cut itself (trunk-rs/trunk#1022), so
// this step does what Trunk's own wasm-bindgen and wasm-opt steps would have done, on the cut
// modules:
//   wasm-split-cli → wasm-bindgen --keep-lld-exports (the chunks import the function table)
//   → wasm-opt's optimiser on every module (-Os; the worker's -O4), binaryen's own, in this
//     process → names with the cut's content hash
//   → index.html.
// Trunk's own (uncut) output is then removed from the staging directory.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import binaryen from 'binaryen';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) process.exit(0);
const release = process.env.TRUNK_PROFILE === 'release';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const NAME = 'effectively-once';
const WORKER = 'explorer';
const target = join(root, 'target/wasm32-unknown-unknown', release ? 'release' : 'debug');
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** `wasm` without its "name" section: --strip-debug drops it anyway, and binaryen, reading it,
 *  warns of every subsection it does not know (one line per module in the build's log). */
function withoutNames(wasm) {
  const kept = [wasm.subarray(0, 8)];
  const uleb = (at) => {
    let value = 0, shift = 0, byte;
    do {
      byte = wasm[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return [value, at];
  };
  const customName = (at) => {
    const [len, name] = uleb(at);
    return wasm.subarray(name, name + len).toString();
  };
  for (let at = 8; at < wasm.length; ) {
    const [size, body] = uleb(at + 1);
    if (!(wasm[at] === 0 && customName(body) === 'name')) kept.push(wasm.subarray(at, body + size));
    at = body + size;
  }
  return Buffer.concat(kept);
}

/** What `wasm-opt <level> [--low-memory-unused] [--converge] --strip-debug --strip-producers m
 *  -o m` does, with binaryen (the same version and library as the npm `wasm-opt`), in this
 *  process: about 260 modules (both cuts), most of them chunks under 1 KiB, where starting
 *  wasm-opt (binaryen compiled to wasm, on Node) was most of the time — nearly 3 minutes of the
 *  build on two cores, now 30 s on one. The output is byte for byte wasm-opt's (BENCHMARKS.md,
 *  "The test command's time"); Stack IR is what wasm-opt's binary writer adds when optimising.
 *  binaryen's levels are global: each call sets all of them. */
function optimise(file, { optimize, shrink, lowMemoryUnused = false, converge = false }) {
  binaryen.setOptimizeLevel(optimize);
  binaryen.setShrinkLevel(shrink);
  binaryen.setLowMemoryUnused(lowMemoryUnused);
  binaryen.setGenerateStackIR(true);
  binaryen.setOptimizeStackIR(true);
  const m = binaryen.readBinary(withoutNames(readFileSync(file)));
  try {
    const pass = () => {
      m.optimize();
      m.runPasses(['strip-debug', 'strip-producers']);
      return m.emitBinary();
    };
    // --converge: again while the binary shrinks; like wasm-opt, the last run's output is kept.
    for (let out = pass(), last = Infinity; ; out = pass()) {
      if (!converge || out.length >= last) return writeFileSync(file, out);
      last = out.length;
    }
  } finally {
    m.dispose();
  }
}

/** Cuts `target/<name>.wasm` in `work`, optimised with `optimise`'s `level`: every module (the
 *  main one after wasm-bindgen first, then the split ones: scenarios, parts, shared chunks), the
 *  glue, wasm-split's loader, and the cut's id, a hash over everything it writes (any change renames every file, so a page can
 *  never meet a module of another build: the HTTP cache and the service worker key on names). */
function cut(name, work, level) {
  const input = join(target, `${name}.wasm`);
  if (!readFileSync(input).includes(Buffer.from('reloc.CODE'))) {
    throw new Error(`${input} has no relocations: was it built with its split feature (build.rs)?`);
  }
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'bg'), { recursive: true });
  run('wasm-split-cli', [input, work, '--out-name', name]);
  run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--no-typescript',
    '--out-dir', join(work, 'bg'), '--out-name', name, join(work, `${name}.wasm`)]);
  const modules = [join(work, 'bg', `${name}_bg.wasm`),
    ...readdirSync(work).filter((f) => f.endsWith('.wasm') && f !== `${name}.wasm`).map((f) => join(work, f))];
  if (release) for (const m of modules) optimise(m, level);
  const glue = readFileSync(join(work, 'bg', `${name}.js`), 'utf8');
  const loader = readFileSync(join(work, '__wasm_split.js'), 'utf8');
  const hash = createHash('sha256');
  for (const m of modules) hash.update(readFileSync(m));
  // This step's own source too: it writes the loader that runs (split.js).
  hash.update(glue).update(loader).update(readFileSync(fileURLToPath(import.meta.url)));
  return { modules, glue, loader, id: hash.digest('hex').slice(0, 16) };
}

const stem = (m) => m.slice(m.lastIndexOf('/') + 1, -'.wasm'.length);
/** The slug of a scenario's split point (`dual_write` → `dual-write`, as `s=` names it). */
const slug = (l) => l.replace(/_/g, '-');

/** The cut's files for dist (`out`: name → bytes) and what each loader fetches (`filesOf`).
 *  `named(stem, ext)` names a file of this cut; `home` (the page only) names the pack of every
 *  scenario's chunks that the home page fetches.
 *
 *  The scenarios' and parts' own modules keep a file each. The shared chunks (code two or more
 *  of them use and the main module does not: 26–65 of under 1 KiB per scenario, 4–11 per part)
 *  go into packs, each fetched once and compressed as a whole (a third of their separate size);
 *  each chunk is still instantiated only when a module that needs it loads, and at most once
 *  (wasm-split's memoised loaders). */
function packed({ name, modules, glue, loader }, named, home) {
  const out = new Map();
  let split = loader.replace(`"./${name}.js"`, `"./${named(name, '.js')}"`);
  const chunks = modules.slice(1).filter((m) => /^chunk_\d+$/.test(stem(m)));
  // Which chunks each loader needs, by loader name (a scenario's module, or `part_<name>`).
  const chunkOf = new Map([...loader.matchAll(/const (__chunk_\d+) = makeLoad\([^]*?"\.\/(chunk_\d+)\.wasm"/g)]
    .map((m) => [m[1], m[2]]));
  const needs = {};
  for (const m of loader.matchAll(/__wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\([^]*?, \[([^\]]*)\]\)\)/g)) {
    const deps = m[2].split(',').map((d) => d.trim()).filter(Boolean);
    if (deps.some((d) => !chunkOf.has(d))) throw new Error(`unknown chunk in ${m[1]}'s loader`);
    needs[m[1]] = deps.map((d) => chunkOf.get(d));
  }
  // The packs: one per loader (a scenario or an optional part) with exactly the chunks it
  // needs, so that a link fetches no chunk its scenario does not use (a scenario's pack is
  // 4.9–7.9 KB of gzip, the scenarios' chunks together 12.0 KB), and opening a part never
  // fetches the scenarios'. A chunk two of them share is in both; whichever pack arrives first
  // instantiates it, once. For the page, one pack of every scenario's chunks too, for the home
  // page, which fetches the scenarios one after another for its pictures: fifteen packs of
  // their own would be 89 KB. Each pack starts with its own index (u32 LE: count, then chunk
  // number and length for each), so that the main module carries no table of where each chunk
  // is (one cost the page 4.6 KB).
  const packs = {};
  if (home) packs.scenarios = [...new Set(Object.entries(needs).filter(([l]) => !l.startsWith('part_')).flatMap(([, c]) => c))];
  for (const [l, c] of Object.entries(needs)) if (c.length) packs[l] = c;
  const packFile = (pack) => named(pack === 'scenarios' ? 'chunks' : `chunks-${pack.replace(/^part_/, '')}`, '.bin');
  if (new Set(Object.keys(packs).map(packFile)).size !== Object.keys(packs).length) throw new Error('two packs of one name');
  const filesOf = (l) => [named(`split_${l}`, '.wasm'), ...(needs[l].length ? [packFile(l)] : [])];
  const number = (c) => Number(c.slice('chunk_'.length));
  for (const [pack, names] of Object.entries(packs)) {
    const files = names.sort().map((c) => readFileSync(chunks.find((m) => stem(m) === c)));
    const index = Buffer.alloc(4 + 8 * names.length);
    index.writeUInt32LE(names.length, 0);
    names.forEach((c, i) => {
      index.writeUInt32LE(number(c), 4 + 8 * i);
      index.writeUInt32LE(files[i].length, 8 + 8 * i);
    });
    out.set(packFile(pack), Buffer.concat([index, ...files]));
  }
  const missing = chunks.map(stem).filter((c) => !Object.values(packs).some((p) => p.includes(c)));
  if (missing.length) throw new Error(`chunks no loader needs: ${missing.join(', ')}`);
  const block = /(const __chunk_\d+ = makeLoad\(\(\) => \{\s*const src = )fetch\(new URL\("\.\/(chunk_\d+)\.wasm", import\.meta\.url\)\);([^]*?)WebAssembly\.instantiateStreaming\(src, imports\)/g;
  let n = 0;
  split = split.replace(block, (_, head, chunk, mid) => {
    n += 1;
    return `${head}chunkBytes(${number(chunk)});${mid}WebAssembly.instantiate(await src, imports)`;
  });
  if (n !== chunks.length) throw new Error(`rewrote ${n} of ${chunks.length} chunk loaders in ${name}'s __wasm_split.js`);
  // A loader asks for its chunks from its own pack: wasm-split's loader calls each dependency's
  // loader synchronously, so the hint holds exactly while they ask, and every chunk asked for is
  // in the hinted pack. A chunk is instantiated once whichever pack its bytes came from (they
  // are the same bytes). On the home page a scenario asks for the pack of them all.
  let hinted = 0;
  split = split.replace(/(__wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\([^]*?, )(\[[^\]]*\])\)\)/g, (_, head, l, deps) => {
    if (!packs[l]) return `${head}${deps}))`;
    hinted += 1;
    return `${head}fromPack("${packFile(l)}", ${l.startsWith('part_')}, ${deps})))`;
  });
  const loaders = Object.keys(packs).filter((p) => p !== 'scenarios').length;
  if (hinted !== loaders) throw new Error(`hinted ${hinted} of ${loaders} loaders in ${name}'s __wasm_split.js`);
  const ask = home ? `(part || !onHome() ? pack : "${packFile('scenarios')}")` : 'pack';
  split += `
const PACKS = new Map();
let hint;
function fromPack(pack, part, deps) {
  const ask = () => ${ask};
  return deps.map((d) => () => { hint = ask(); try { return d(); } finally { hint = undefined; } });
}
function chunkBytes(n) {
  const pack = hint;
  if (!PACKS.has(pack)) {
    const file = early(new URL("./" + pack, import.meta.url)).then(async (r) => {
      if (!r.ok) throw new Error(\`\${r.status} \${r.url}\`);
      const b = await r.arrayBuffer();
      const v = new DataView(b);
      const index = new Map();
      for (let i = 0, at = 4 + 8 * v.getUint32(0, true); i < v.getUint32(0, true); i += 1) {
        const length = v.getUint32(8 + 8 * i, true);
        index.set(v.getUint32(4 + 8 * i, true), new Uint8Array(b, at, length));
        at += length;
      }
      return index;
    });
    file.catch(() => { if (PACKS.get(pack) === file) PACKS.delete(pack); });
    PACKS.set(pack, file);
  }
  return PACKS.get(pack).then((index) => index.get(n));
}
`;
  for (const m of modules.slice(1).filter((m) => !chunks.includes(m))) {
    if (!split.includes(`"./${stem(m)}.wasm"`)) throw new Error(`${name}'s __wasm_split.js never fetches ${stem(m)}.wasm`);
    split = split.replace(`"./${stem(m)}.wasm"`, `"./${named(stem(m), '.wasm')}"`);
    out.set(named(stem(m), '.wasm'), readFileSync(m));
  }
  // Only the glue's `import … from`: its imports object keeps the module name the wasm imports.
  const from = (f) => `from "./${f}"`;
  out.set(named(name, '.js'), Buffer.from(glue.split(from('__wasm_split.js')).join(from(named('split', '.js')))));
  out.set(named(name, '_bg.wasm'), readFileSync(modules[0]));
  const counts = `${out.size - 2 - Object.keys(packs).length} modules and ${chunks.length} shared chunks in ${Object.keys(packs).length} packs`;
  return { out, split, needs, filesOf, counts };
}

// The page.
// -Os (level 2, shrink 1) rather than -Oz: it gzips smaller here (BENCHMARKS.md, 2026-12-07).
// Rust's stack lies below its data (`--stack-first`), so the low 1 KiB of memory is the stack's
// far end, which no run comes near: --low-memory-unused lets binaryen fold constant offsets
// into loads.
const page = cut(NAME, join(root, 'target/split'), { optimize: 2, shrink: 1, lowMemoryUnused: true, converge: true });
const named = (s, ext) => `${s}-${page.id}${ext}`;
const cutPage = packed({ name: NAME, ...page }, named, true);
let split = cutPage.split;
const { out, needs, filesOf } = cutPage;

/** What each loader fetches: { page: [files], scenarios: { slug: [files] }, parts: { name:
 *  [files] }, worker: { main: [files], scenarios: { slug: [files] } } }, names as in dist (read
 *  by size-check.mjs). A split point named `part_<name>` is an optional part of the page; every
 *  other one is a scenario. */
function manifest() {
  const scenarios = {};
  const parts = {};
  for (const l of Object.keys(needs)) {
    if (l.startsWith('part_')) parts[l.slice(5)] = filesOf(l);
    else scenarios[slug(l)] = filesOf(l);
  }
  const main = ['index.html', named(NAME, '.js'), named(NAME, '_bg.wasm'), named('split', '.js')];
  return { build: page.id, page: main, scenarios, parts, worker: workerManifest };
}

// Only for the page: the module a link draws first (the home page's part, or the scenario `s=`
// names) and its pack are fetched as soon as this file runs, beside the page's own wasm,
// instead of after it has started: one round trip less before the first drawing. The loaders
// take that fetch once; a retry fetches anew. A link this rule misreads fetches one file for
// nothing, no more.
if (!needs.part_home) throw new Error('no part_home loader in __wasm_split.js');
const first = Object.fromEntries(Object.keys(needs).map((l) => [l.startsWith('part_') ? l : slug(l), filesOf(l)])
  .filter(([l]) => l === 'part_home' || !l.startsWith('part_')));
split = split.replace(/fetch\(new URL\("\.\/split_/g, 'early(new URL("./split_');
split += `
function onHome() {
  const q = new URLSearchParams(location.search);
  return q.get("home") === "1" || [...q.keys()].every((k) => k === "lang" || k.startsWith("utm_"));
}
const FIRST = ${JSON.stringify(first)};
const EARLY = new Map();
function early(url) {
  const started = EARLY.get(url.href);
  EARLY.delete(url.href);
  return started ?? fetch(url);
}
for (const f of FIRST[onHome() ? "part_home" : new URLSearchParams(location.search).get("s")] ?? []) {
  const url = new URL("./" + f, import.meta.url);
  const started = fetch(url);
  started.catch(() => {});
  EARLY.set(url.href, started);
}
`;
out.set(named('split', '.js'), Buffer.from(split));

// The explorer's worker: a module worker (its loader imports the glue, which imports the
// split loader) whose files are all named by the worker's own cut. A page names its loader in
// index.html (<meta name="explorer-worker">), so it never starts another build's worker.
// Optimised for speed, as Trunk's own step did (`data-wasm-opt="4"`, BENCHMARKS.md: the
// explorer's states per second).
const worker = cut(WORKER, join(root, 'target/split-worker'), { optimize: 4, shrink: 0 });
const workerNamed = (s, ext) => `${s.startsWith(WORKER) ? s : `${WORKER}_${s}`}-${worker.id}${ext}`;
const cutWorker = packed({ name: WORKER, ...worker }, workerNamed, false);
const loaderFile = workerNamed(`${WORKER}_loader`, '.js');
const workerMain = [loaderFile, workerNamed(WORKER, '.js'), workerNamed(WORKER, '_bg.wasm'), workerNamed('split', '.js')];
const workerManifest = {
  main: workerMain,
  scenarios: Object.fromEntries(Object.keys(cutWorker.needs).map((l) => [slug(l), cutWorker.filesOf(l)])),
};
// The first exploration's scenario is the worker's name (src/ui/explore.rs): the loader
// fetches its module and pack at once, beside the worker's own glue and wasm, and the split
// loader takes those fetches (once; a retry fetches anew), so the first exploration waits for
// one round of fetches, not three.
const workerSplit = `${cutWorker.split.replace(/fetch\(new URL\("\.\/explorer_split_/g, 'early(new URL("./explorer_split_')}
function early(url) {
  const started = self.EARLY?.get(url.href);
  self.EARLY?.delete(url.href);
  return started ?? fetch(url);
}
`;
cutWorker.out.set(workerNamed('split', '.js'), Buffer.from(workerSplit));
// Messages that arrive while the wasm is still loading are kept and handed to the Rust handler
// (src/worker.rs) once it is installed.
cutWorker.out.set(loaderFile, Buffer.from(`const early = [];
self.onmessage = (event) => early.push(event);
const here = (f) => new URL("./" + f, import.meta.url);
self.EARLY = new Map();
for (const f of ${JSON.stringify(workerManifest.scenarios)}[self.name] ?? []) {
  const started = fetch(here(f));
  started.catch(() => {});
  self.EARLY.set(here(f).href, started);
}
const wasm = fetch(here("${workerNamed(WORKER, '_bg.wasm')}"));
const { default: init } = await import("./${workerNamed(WORKER, '.js')}");
await init({ module_or_path: wasm });
for (const event of early) self.onmessage(event);
`));

// index.html: Trunk's page glue and wasm (their names and integrity hashes) → ours; Trunk's
// worker files go.
const htmlPath = join(dir, 'index.html');
let html = readFileSync(htmlPath, 'utf8');
const trunks = readdirSync(dir).filter((f) => f.startsWith(`${NAME}-`) && /(_bg\.wasm|\.js)$/.test(f));
for (const old of trunks) {
  const ours = old.endsWith('_bg.wasm') ? named(NAME, '_bg.wasm') : named(NAME, '.js');
  html = html.split(sri(readFileSync(join(dir, old)))).join(sri(out.get(ours)));
  html = html.split(old).join(ours);
  rmSync(join(dir, old));
}
if (trunks.length !== 2) throw new Error(`expected Trunk's page glue and wasm, found ${trunks.join(', ')}`);
// Trunk preloads the wasm with its integrity hash, which Chromium cannot check on a fetch
// preload and warns about on every load (crbug.com/981419); the glue's own fetch carries none,
// and a preload must match its fetch to be used.
let preloads = 0;
html = html.replace(/<link\b[^>]*>/g, (tag) => {
  if (!tag.includes(named(NAME, '_bg.wasm')) || !/rel="?preload/.test(tag)) return tag;
  preloads += 1;
  return tag.replace(/\s+integrity=("[^"]*"|[^\s>]+)/, '');
});
if (preloads !== 1) throw new Error(`expected one preload of the page's wasm in index.html, found ${preloads}`);
for (const f of [`${WORKER}.js`, `${WORKER}_bg.wasm`]) {
  if (!existsSync(join(dir, f))) throw new Error(`Trunk built no ${f}`);
  rmSync(join(dir, f));
}
if (!html.includes('</head>')) throw new Error('index.html has no </head>');
html = html.replace('</head>', `<meta name="explorer-worker" content="./${loaderFile}"></head>`);
for (const [f, bytes] of [...out, ...cutWorker.out]) writeFileSync(join(dir, f), bytes);
writeFileSync(join(root, 'target/split/manifest.json'), JSON.stringify(manifest(), null, 1));
writeFileSync(htmlPath, html);
console.log(`split: the page, ${cutPage.counts} (build ${page.id}); the worker, ${cutWorker.counts} (build ${worker.id})`);
