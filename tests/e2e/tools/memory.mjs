// Wasm memory of a run in Chromium: after the first drawing, after stepping through every step
// (the scrubber moved to each in turn), and after a knob change that replays the run again.
//   node tests/e2e/tools/memory.mjs http://127.0.0.1:8081/
// Wasm memory only grows, so each figure is the peak so far.
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
// (label, query, knob index, new value)
const cases = [
  ['refund-cap, 10 steps', '?s=refund-cap&v=read-then-write&lang=en', 0, '150'],
  ['backpressure, 96 steps', '?s=backpressure&lang=en', 0, '500'],
  ['retry-layers, 625 steps', '?s=retry-layers&v=every-layer-retries&layers=4&attempts=5&downstream=always-timeout&lang=en', 5, '7'],
];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const context = await browser.newContext({ serviceWorkers: 'block' });
console.log('| run | first drawing | every step shown | after a knob change |');
console.log('|---|---:|---:|---:|');
for (const [label, query, knob, value] of cases) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (e) => { window.__wasm = e.detail.wasm; });
  });
  await page.goto(base + query);
  await page.locator('.counter').waitFor();
  const bytes = () => page.evaluate(() => window.__wasm.memory.buffer.byteLength);
  const first = await bytes();
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const range = document.querySelector('input[type="range"]');
    for (let i = 0; i <= Number(range.max); i++) {
      range.value = String(i);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      if (i % 25 === 0) await frame();
    }
    await frame();
  });
  const stepped = await bytes();
  await page.evaluate(async ([knob, value]) => {
    const input = document.querySelector(`[data-cmd="knob:${knob}"]`);
    input.value = value;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  }, [knob, value]);
  const knobbed = await bytes();
  const mb = (b) => `${(b / 1048576).toFixed(1)} MiB`;
  console.log(`| ${label} | ${mb(first)} | ${mb(stepped)} | ${mb(knobbed)} |`);
  await page.close();
}
await browser.close();
