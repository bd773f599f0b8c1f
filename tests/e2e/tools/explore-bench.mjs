// In-browser exploration throughput: for every scenario variant, opens the page afresh, runs the
// explorer panel (the Web Worker, release build) five times and reports the median of the
// worker's own exploration time (data-ms, whole milliseconds) and states per second.
// Usage: node tools/explore-bench.mjs [baseURL]   (serve dist/ first, e.g. on :8081)
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
const variants = [
  ['dual-write', ['commit-then-publish', 'publish-then-commit', 'outbox']],
  ['outbox-relay', ['no-dedup', 'inbox', 'inbox-separate-tx', 'delete-after-publish', 'two-relays', 'skip-locked']],
  ['refund-cap', ['read-then-write', 'mutex-one-instance', 'mutex-two-instances', 'conditional-update', 'select-for-update', 'semaphore-2']],
  ['retry-layers', ['every-layer-retries', 'one-retry-authority', 'idempotency-key', 'temporal-defaults', 'both-fixes']],
];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
console.log('| scenario | variant | states | median time | states/s (median of 5) |');
console.log('|---|---|---:|---:|---:|');
for (const [scenario, vs] of variants) {
  for (const v of vs) {
    const runs = [];
    for (let i = 0; i < 5; i++) {
      await page.goto(`${base}?s=${scenario}&v=${v}&lang=en`);
      const explore = page.getByRole('button', { name: 'Explore every run' });
      await explore.click();
      const totals = page.locator('.exp-totals').first();
      await totals.waitFor({ timeout: 60_000 });
      runs.push({
        states: Number(await totals.getAttribute('data-states')),
        ms: Number(await totals.getAttribute('data-ms')),
      });
    }
    runs.sort((a, b) => a.ms - b.ms);
    const mid = runs[2];
    const rate = mid.ms > 0 ? Math.round((1000 * mid.states) / mid.ms).toLocaleString('en-US') : '– (< 1 ms)';
    console.log(`| ${scenario} | ${v} | ${mid.states.toLocaleString('en-US')} | ${mid.ms} ms | ${rate} |`);
  }
}
await browser.close();
