// The main thread while the home page loads, in Chromium, unthrottled and with the CPU throttled
// 4× (as Lighthouse's mobile profile): for each of `runs` fresh pages, the longest task and the
// time of all tasks beyond their first 50 ms (what Lighthouse counts as blocking).
//   node tests/e2e/tools/home-tasks.mjs http://127.0.0.1:8093/ [runs=5]
// Serve the build compressed, as a host does (tools/serve.mjs).
import { launch, throttled } from './runs.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8093/';
const runs = Number(process.argv[3] ?? 5);
const browser = await launch();
console.log('| CPU | longest task / blocking time, each run |');
console.log('|---:|---|');
for (const rate of [1, 4]) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await throttled(context, rate);
    await page.goto(`${base}?home=1&lang=en`);
    await page.locator('.scenario-card').first().waitFor();
    await page.waitForTimeout(2000);
    const tasks = await page.evaluate(() => window.__tasks);
    const blocking = tasks.reduce((t, d) => t + Math.max(0, d - 50), 0);
    out.push(`${Math.round(Math.max(0, ...tasks))} / ${Math.round(blocking)} ms`);
    await context.close();
  }
  console.log(`| ${rate}× | ${out.join(', ')} |`);
}
await browser.close();
