// The longest main-thread task of each thing a learner does on the 625-step run, in Chromium,
// unthrottled and with the CPU throttled 4× (as Lighthouse's mobile profile):
//   node tests/e2e/tools/tasks.mjs http://127.0.0.1:8081/ [runs=3]
// load: opening the link (the page's start, the scenario's module, the first replay and
// drawing); step: Step forward five times; scrub: the scrubber to the middle, then to the end;
// knob: a knob change, which replays the run. Prints the worst of `runs` fresh pages.
import { launch, longest, throttled } from './runs.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
const runs = Number(process.argv[3] ?? 3);
const [, query, knobIndex, knobValue] = longest;
const browser = await launch();
const context = await browser.newContext({ serviceWorkers: 'block' });

async function once(rate) {
  const page = await throttled(context, rate);
  await page.goto(base + query);
  await page.locator('.counter').waitFor();
  await page.waitForTimeout(1500);
  const worst = () => page.evaluate(() => {
    const m = Math.max(0, ...window.__tasks);
    window.__tasks = [];
    return m;
  });
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  const load = await worst();
  for (let i = 0; i < 5; i++) {
    await page.getByRole('button', { name: 'Step forward' }).click();
    await frame();
  }
  await page.waitForTimeout(300);
  const step = await worst();
  for (const at of ['mid', 'end']) {
    await page.evaluate((at) => {
      const range = document.querySelector('input[type="range"]');
      range.value = at === 'mid' ? String(Math.round(Number(range.max) / 2)) : range.max;
      range.dispatchEvent(new Event('input', { bubbles: true }));
    }, at);
    await frame();
  }
  await page.waitForTimeout(300);
  const scrub = await worst();
  await page.evaluate(([knob, value]) => {
    const input = document.querySelector(`[data-cmd="knob:${knob}"]`);
    input.value = value;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, [knobIndex, knobValue]);
  await frame();
  await page.waitForTimeout(300);
  const knob = await worst();
  await page.close();
  return { load, step, scrub, knob };
}

console.log('| CPU | load | step | scrub | knob change |');
console.log('|---:|---:|---:|---:|---:|');
for (const rate of [1, 4]) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await once(rate));
  const max = (k) => Math.round(Math.max(...all.map((r) => r[k])));
  const ms = (k) => (max(k) === 0 ? 'none over 50 ms' : `${max(k)} ms`);
  console.log(`| ${rate}× | ${ms('load')} | ${ms('step')} | ${ms('scrub')} | ${ms('knob')} |`);
}
await browser.close();
