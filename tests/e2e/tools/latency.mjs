// Player latency in Chromium: input to the next frame, median of 5 fresh pages.
//   node tests/e2e/tools/latency.mjs http://127.0.0.1:8081/
// "replay": a knob change that replays the whole run (new trace, every view redrawn);
// "step": Step forward on that run (the step's redraw: timeline, tables, narration);
// "scrub": the scrubber dragged to the middle of the run (an `input` event on the range).
import { launch, longest, refundCap } from './runs.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
// (label, query, knob index, new value)
const cases = [
  refundCap,
  ['retry-layers, 27 steps', '?s=retry-layers&v=every-layer-retries&lang=en', 5, '7'],
  longest,
];
const browser = await launch();
const page = await browser.newPage();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log('| run | knob change → next frame | Step forward → next frame | scrub to the middle → next frame |');
console.log('|---|---:|---:|---:|');
for (const [label, query, knob, value] of cases) {
  const replay = [];
  const step = [];
  const scrub = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(base + query);
    await page.locator('.counter').waitFor();
    const [r, s, d] = await page.evaluate(async ([knob, value]) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const input = document.querySelector(`[data-cmd="knob:${knob}"]`);
      input.value = value;
      let t0 = performance.now();
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await frame();
      const r = performance.now() - t0;
      const fwd = document.querySelector('button[aria-label="Step forward"]');
      t0 = performance.now();
      fwd.click();
      await frame();
      const s = performance.now() - t0;
      const range = document.querySelector('input[type="range"]');
      range.value = String(Math.floor(Number(range.max) / 2));
      t0 = performance.now();
      range.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      return [r, s, performance.now() - t0];
    }, [knob, value]);
    replay.push(r);
    step.push(s);
    scrub.push(d);
  }
  console.log(`| ${label} | ${median(replay).toFixed(0)} ms | ${median(step).toFixed(0)} ms | ${median(scrub).toFixed(0)} ms |`);
}
await browser.close();
