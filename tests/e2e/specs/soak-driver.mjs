// The soak: autoplay at 4×, inject faults and scheduler moves, switch scenarios and variants, for
// a given time, sampling once per interval: wasm memory, JS heap after a forced GC, DOM nodes,
// console errors. Shared by specs/soak.spec.mjs (one minute, in the suite) and tools/soak.mjs
// (ten minutes, by hand).
import { expect } from '@playwright/test';

/** Installs the wasm-memory probe; call before `page.goto`. */
export async function probe(page) {
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (e) => {
      window.__wasm = e.detail.wasm;
    });
  });
}

/** One sample: wasm memory bytes, JS heap bytes after GC, DOM elements. */
export async function sample(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  return page.evaluate((usedSize) => ({
    wasm: window.__wasm?.memory?.buffer?.byteLength ?? 0,
    heap: usedSize,
    dom: document.getElementsByTagName('*').length,
  }), heap.usedSize);
}

/**
 * Drives the page for `ms` milliseconds, calling `onSample(sample, elapsedMs)` every
 * `everyMs`. Deterministic choice of actions (seeded); returns the samples.
 */
export async function soak(page, { ms, everyMs, onSample = () => {} }) {
  const cdp = await page.context().newCDPSession(page);
  // Every scenario once first, so that each module is loaded before the samples that count.
  const picker = page.getByRole('combobox', { name: 'Scenario' });
  const scenarios = await picker.locator('option').count();
  for (let i = 0; i < scenarios; i++) {
    await picker.selectOption({ index: i });
    // The picker shows a scenario once its module is here.
    await expect(picker).toHaveValue(String(i), { timeout: 15_000 });
  }
  let seed = 20261203;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const samples = [];
  const start = Date.now();
  let due = 0;
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('4×');
  while (Date.now() - start < ms) {
    const elapsed = Date.now() - start;
    if (elapsed >= due) {
      const s = await sample(page, cdp);
      samples.push({ at: elapsed, ...s });
      onSample(s, elapsed);
      due += everyMs;
    }
    const kind = next(10);
    if (kind < 2) {
      await picker.selectOption({ index: next(scenarios) });
    } else if (kind < 4) {
      const radios = page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio');
      const n = await radios.count();
      if (n > 0) await radios.nth(next(n)).click();
    } else if (kind < 7) {
      const moves = page.locator('.choices button:visible');
      const n = await moves.count();
      // While playing, the buttons are redrawn every step: a click may miss, as a person's would.
      if (n > 0) await moves.nth(next(n)).click({ timeout: 1000 }).catch(() => {});
    } else {
      await page.getByRole('button', { name: /^(Play|Pause)$/ }).click();
    }
    await page.waitForTimeout(150 + next(300));
  }
  const s = await sample(page, cdp);
  samples.push({ at: Date.now() - start, ...s });
  onSample(s, Date.now() - start);
  return samples;
}
