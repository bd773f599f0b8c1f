// When the first drawing appears on the slow 4G profile (150 ms round trip, 1.6 Mbit/s
// down, 750 kbit/s up; CPU not throttled, so the network alone is measured), in Chromium:
//   node tests/e2e/tools/slow4g.mjs http://127.0.0.1:8093/ [runs=3]
// Serve the build compressed, as a host does (tools/serve.mjs). "Drawn" is the first frame with
// the run's timeline (a link) or the home page's heading as the app draws it (or the static
// shell's), read from a requestAnimationFrame loop started before the page's own script; bytes
// are what the page fetched until then.
import { launch } from './runs.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8093/';
const runs = Number(process.argv[3] ?? 3);
const links = [
  ['a scenario link', '?s=dual-write&v=commit-then-publish&lang=en', '.timeline svg'],
  ['the home page', '?home=1&lang=en', 'main.home:not(#shell) h1'],
  // The static shell (index.html): the home page's title and lead before the wasm arrives.
  ['the loading shell', '?home=1&lang=en', '#shell h1'],
  ['an embed', '?s=refund-cap&v=read-then-write&embed=1&lang=en', '.timeline svg'],
];

const browser = await launch();
async function once(query, selector) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8,
  });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  await page.addInitScript((sel) => {
    const tick = () => {
      if (document.querySelector(sel)) window.__drawn = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, selector);
  await page.goto(base + query);
  await page.waitForFunction(() => window.__drawn, null, { timeout: 60_000 });
  const drawn = await page.evaluate(() => window.__drawn);
  const fetched = bytes;
  await context.close();
  return { drawn, fetched };
}

console.log('| link | first drawing (median of runs) | all runs | bytes fetched by then |');
console.log('|---|---:|---|---:|');
for (const [label, query, selector] of links) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await once(query, selector));
  const times = all.map((r) => r.drawn).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const kb = Math.round(Math.max(...all.map((r) => r.fetched)) / 1024);
  console.log(`| ${label} | ${(median / 1000).toFixed(2)} s | ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} | ${kb} KiB |`);
}
await browser.close();
