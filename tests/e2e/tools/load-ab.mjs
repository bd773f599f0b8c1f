// Opening a link on two builds served side by side, fresh pages alternated: the longest
// main-thread task and the blocking time (the sum of each long task's time over 50 ms) from
// the start until 1,500 ms after the counter is drawn, median and max over the pages:
//   node tests/e2e/tools/load-ab.mjs http://127.0.0.1:8101/ http://127.0.0.1:8081/ [cpu=4] [pages=8] [query]
// The query defaults to the 625-step run (`runs.mjs`).
import { launch, longest, throttled } from './runs.mjs';

const [before, after] = process.argv.slice(2, 4);
const rate = Number(process.argv[4] ?? 4);
const pages = Number(process.argv[5] ?? 8);
const query = process.argv[6] ?? longest[1];
const browser = await launch();
const context = await browser.newContext({ serviceWorkers: 'block' });
const seen = { before: [], after: [] };
for (let i = 0; i < pages; i++) {
  for (const [name, base] of [['before', before], ['after', after]]) {
    const page = await throttled(context, rate);
    await page.goto(base + query);
    await page.locator('.counter').waitFor();
    await page.waitForTimeout(1500);
    const tasks = await page.evaluate(() => window.__tasks);
    seen[name].push({ longest: Math.max(0, ...tasks), blocking: tasks.reduce((sum, d) => sum + d - 50, 0) });
    await page.close();
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${query} at ${rate}× CPU, ${pages} pages each`);
for (const [name, runs] of Object.entries(seen)) {
  const of = (k) => runs.map((r) => r[k]);
  console.log(`${name}: longest ${Math.round(median(of('longest')))} ms (max ${Math.round(Math.max(...of('longest')))}), blocking ${Math.round(median(of('blocking')))} ms`);
}
await browser.close();
