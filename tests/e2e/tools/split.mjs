// Run first by the post_build hook minify-js.mjs: cuts the page's wasm into the page's own
// module and one module per scenario, fetched when the scenario is first shown (issue 25).
//
// Trunk builds the page with feature `split` (index.html): every scenario sits behind a
// `#[wasm_split]` loader (src/scenarios.rs), and build.rs links the wasm with its relocations
// kept. Trunk cannot run the cut itself (trunk-rs/trunk#1022), so this step does what Trunk's
// own wasm-bindgen and wasm-opt steps would have done, on the cut modules:
//   wasm-split-cli → wasm-bindgen --keep-lld-exports (the chunks import the function table)
//   → wasm-opt -Oz on every module → names with the build's content hash → index.html.
// Trunk's own (uncut) output for the page is then removed from the staging directory.
import { createHash } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) process.exit(0);
const release = process.env.TRUNK_PROFILE === 'release';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const NAME = 'effectively-once';
const input = join(root, 'target/wasm32-unknown-unknown', release ? 'release' : 'debug', `${NAME}.wasm`);
const work = join(root, 'target/split');

/** What each loader fetches (`filesOf`, below): { page: [files], scenarios: { slug: [files] },
 *  parts: { name: [files] } }, names as in dist (read by size-check.mjs). A split point named
 *  `part_<name>` is an optional part of the page; every other one is a scenario. */
function manifest() {
  const scenarios = {};
  const parts = {};
  for (const l of Object.keys(needs)) {
    if (l.startsWith('part_')) parts[l.slice(5)] = filesOf(l);
    else scenarios[l.replace(/_/g, '-')] = filesOf(l);
  }
  const page = ['index.html', named(NAME, '.js'), named(NAME, '_bg.wasm'), named('split', '.js')];
  return { build: id, page, scenarios, parts };
}

const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

const wasm = readFileSync(input);
if (!wasm.includes(Buffer.from('reloc.CODE'))) {
  throw new Error(`${input} has no relocations: was it built with feature "split" (build.rs)?`);
}
rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'bg'), { recursive: true });
run('wasm-split-cli', [input, work, '--out-name', NAME]);
run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--no-typescript',
  '--out-dir', join(work, 'bg'), '--out-name', NAME, join(work, `${NAME}.wasm`)]);

// Every module: the page's (after wasm-bindgen) and the split ones (scenarios, shared chunks).
const modules = [join(work, 'bg', `${NAME}_bg.wasm`),
  ...readdirSync(work).filter((f) => f.endsWith('.wasm') && f !== `${NAME}.wasm`).map((f) => join(work, f))];
if (release) {
  // On every core at once: about 200 modules, most of them chunks of under 1 KiB, where
  // wasm-opt's start-up is most of the time.
  const opt = promisify(execFile);
  const queue = [...modules];
  const worker = async () => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      await opt('wasm-opt', ['-Oz', '--strip-debug', '--strip-producers', m, '-o', m]);
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() }, worker));
}

// One hash over everything this step writes: any change renames every file, so a page can
// never meet a module of another build (the HTTP cache and the service worker key on names).
const hash = createHash('sha256');
const glue = readFileSync(join(work, 'bg', `${NAME}.js`), 'utf8');
const loader = readFileSync(join(work, '__wasm_split.js'), 'utf8');
for (const m of modules) hash.update(readFileSync(m));
// This step's own source too: it writes the loader the page runs (split.js).
hash.update(glue).update(loader).update(readFileSync(fileURLToPath(import.meta.url)));
const id = hash.digest('hex').slice(0, 16);

const named = (stem, ext) => `${stem}-${id}${ext}`;
const out = new Map(); // file name in dist → bytes
// The scenarios' and parts' own modules keep a file each. The shared chunks (code two or more
// of them use and the page does not: 26–65 of under 1 KiB per scenario, 4–11 per part) go into
// packs, each fetched once and compressed as a whole (a third of their separate size); each
// chunk is still instantiated only when a module that needs it loads, and at most once
// (wasm-split's memoised loaders).
let split = loader.replace(`"./${NAME}.js"`, `"./${named(NAME, '.js')}"`);
const stem = (m) => m.slice(m.lastIndexOf('/') + 1, -'.wasm'.length);
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
// The packs: one per loader (a scenario or an optional part) with exactly the chunks it needs,
// so that a link fetches no chunk its scenario does not use (a scenario's pack is 4.9–7.9 KB of
// gzip, the scenarios' chunks together 12.0 KB), and opening a part never fetches the
// scenarios'. A chunk two of them share is in both; whichever pack arrives first instantiates
// it, once. Plus one pack of every scenario's chunks, for the home page, which fetches the
// scenarios one after another for its pictures: fifteen packs of their own would be 89 KB.
// Each pack starts with its own index (u32 LE: count, then chunk number and length for each),
// so that the page carries no table of where each chunk is (one cost the page 4.6 KB).
const packs = { scenarios: [...new Set(Object.entries(needs).filter(([l]) => !l.startsWith('part_')).flatMap(([, c]) => c))] };
for (const [l, c] of Object.entries(needs)) if (c.length) packs[l] = c;
const packFile = (pack) => named(pack === 'scenarios' ? 'chunks' : `chunks-${pack.replace(/^part_/, '')}`, '.bin');
if (new Set(Object.keys(packs).map(packFile)).size !== Object.keys(packs).length) throw new Error('two packs of one name');
/** What loader `l` fetches: its module and, if it needs chunks, its own pack. */
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
split = split.replace(block, (_, head, name, mid) => {
  n += 1;
  return `${head}chunkBytes(${number(name)});${mid}WebAssembly.instantiate(await src, imports)`;
});
if (n !== chunks.length) throw new Error(`rewrote ${n} of ${chunks.length} chunk loaders in __wasm_split.js`);
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
if (hinted !== Object.keys(packs).length - 1) throw new Error(`hinted ${hinted} of ${Object.keys(packs).length - 1} loaders`);
split += `
const PACKS = new Map();
let hint;
function fromPack(pack, part, deps) {
  const ask = () => (part || !onHome() ? pack : "${packFile('scenarios')}");
  return deps.map((d) => () => { hint = ask(); try { return d(); } finally { hint = undefined; } });
}
function onHome() {
  const q = new URLSearchParams(location.search);
  return q.get("home") === "1" || [...q.keys()].every((k) => k === "lang" || k.startsWith("utm_"));
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
  if (!split.includes(`"./${stem(m)}.wasm"`)) throw new Error(`__wasm_split.js never fetches ${stem(m)}.wasm`);
  split = split.replace(`"./${stem(m)}.wasm"`, `"./${named(stem(m), '.wasm')}"`);
  out.set(named(stem(m), '.wasm'), readFileSync(m));
}
// The module a link draws first (the home page's part, or the scenario `s=` names) and its pack
// are fetched as soon as this file runs, beside the page's own wasm, instead of after it has
// started: one round trip less before the first drawing. The loaders take that fetch once; a
// retry fetches anew. A link this rule misreads fetches one file for nothing, no more.
const { scenarios: first } = manifest();
if (!needs.part_home) throw new Error('no part_home loader in __wasm_split.js');
first.part_home = filesOf('part_home');
split = split.replace(/fetch\(new URL\("\.\/split_/g, 'early(new URL("./split_');
split += `
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
// Only the glue's `import … from`: its imports object keeps the module name the wasm imports.
const from = (name) => `from "./${name}"`;
out.set(named(NAME, '.js'), Buffer.from(glue.split(from('__wasm_split.js')).join(from(named('split', '.js')))));
out.set(named(NAME, '_bg.wasm'), readFileSync(modules[0]));

// index.html: Trunk's page glue and wasm (their names and integrity hashes) → ours.
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
for (const [f, bytes] of out) writeFileSync(join(dir, f), bytes);
writeFileSync(join(work, 'manifest.json'), JSON.stringify(manifest(), null, 1));
writeFileSync(htmlPath, html);
console.log(`split: the page, ${out.size - 3 - Object.keys(packs).length} modules (scenarios and parts) and ${chunks.length} shared chunks in ${Object.keys(packs).length} packs (build ${id})`);
