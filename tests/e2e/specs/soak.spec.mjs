// One minute of autoplay, faults, scheduler moves and scenario switches: no console error, and
// after every scenario has been visited and a 20-second warm-up, the wasm memory stays flat (≤ 256 KiB of
// growth: freed memory is reused, nothing accumulates) and the DOM does not grow without bound.
// The ten-minute version with a report per minute is tools/soak.mjs (BENCHMARKS.md).
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';
import { probe, soak } from './soak-driver.mjs';

test('a one-minute soak leaks nothing and logs no error', async ({ page, problems }) => {
  test.setTimeout(150_000);
  await probe(page);
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  const samples = await soak(page, { ms: 60_000, everyMs: 10_000 });
  console.log(samples.map((s) => `${Math.round(s.at / 1000)} s: wasm ${s.wasm} B, heap ${s.heap} B, ${s.dom} elements`).join('\n'));
  const warm = samples.find((s) => s.at >= 20_000) ?? samples[0];
  const last = samples[samples.length - 1];
  expect(warm.wasm).toBeGreaterThan(0);
  expect(last.wasm - warm.wasm, 'wasm memory growth after warm-up').toBeLessThanOrEqual(256 * 1024);
  expect(Math.max(...samples.map((s) => s.dom)), 'DOM elements').toBeLessThan(5000);
  expectNoConsoleErrors(problems);
});
