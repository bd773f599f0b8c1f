// Wasm memory of a run in Chromium: after the first drawing, after stepping through every step
// (the scrubber moved to each in turn), and after a knob change that replays the run again.
//   node tests/e2e/tools/memory.mjs http://127.0.0.1:8081/
// Wasm memory only grows, so each figure is the peak so far.
import { launch, longest, refundCap } from './runs.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
// (label, query, knob index, new value)
const cases = [
  refundCap,
  ['backpressure, 96 steps', '?s=backpressure&lang=en', 0, '500'],
  longest,
];
const browser = await launch();
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
