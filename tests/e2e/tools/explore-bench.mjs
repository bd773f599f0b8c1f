// In-browser exploration throughput: for every scenario variant, runs the explorer panel (the
// Web Worker, release build) three times and reports the median states per second.
// Usage: node tools/explore-bench.mjs [baseURL]   (serve dist/ first, e.g. on :8081)
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
const variants = [
  ['dual-write', ['commit-then-publish', 'publish-then-commit', 'outbox']],
  ['outbox-relay', ['no-dedup', 'inbox', 'inbox-separate-tx', 'delete-after-publish', 'two-relays', 'skip-locked']],
];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
console.log('| scenario | variant | fault budget | states | median time | states/s (median of 3) |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [scenario, vs] of variants) {
  for (const v of vs) {
    await page.goto(`${base}?s=${scenario}&v=${v}&lang=en`);
    const explore = page.getByRole('button', { name: 'Explore every run' });
    await explore.waitFor();
    const budget = await page.getByRole('combobox', { name: 'Faults per run' }).inputValue();
    const runs = [];
    for (let i = 0; i < 3; i++) {
      await explore.click();
      const totals = page.locator('.exp-totals').first();
      await totals.waitFor({ timeout: 60_000 });
      const text = await totals.innerText();
      const m = text.match(/^([\d,]+) distinct states .* ([\d.]+) s/);
      runs.push({ states: Number(m[1].replaceAll(',', '')), secs: Number(m[2]) });
      // Start over: a new budget selection clears the results.
      await page.getByRole('combobox', { name: 'Faults per run' }).selectOption(budget === '0' ? '0' : '0');
      await page.getByRole('combobox', { name: 'Faults per run' }).selectOption(budget);
    }
    runs.sort((a, b) => a.secs - b.secs);
    const mid = runs[1];
    const rate = mid.secs > 0 ? Math.round(mid.states / mid.secs).toLocaleString('en-US') : '–';
    console.log(`| ${scenario} | ${v} | ${budget} | ${mid.states.toLocaleString('en-US')} | ${mid.secs.toFixed(2)} s | ${rate} |`);
  }
}
await browser.close();
