import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

test('home page loads without console errors or failed requests', async ({ page, problems }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  const state = await waitForApp(page);
  test.info().annotations.push({ type: 'app-state', description: state });

  await expect(page).toHaveTitle(/Effectively Once/);
  expectNoConsoleErrors(problems);
});

test('a link loads without console warnings, and fetches the page once', async ({ page, problems }) => {
  const warnings = [];
  // (The test runner blocks service workers, and register-sw.js says so.)
  page.on('console', (m) => { if (m.type() === 'warning' && !/blocked by Playwright/.test(m.text())) warnings.push(m.text()); });
  const wasm = [];
  page.on('request', (r) => { if (/\/effectively-once-[0-9a-f]+_bg\.wasm$/.test(r.url())) wasm.push(r.url()); });
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  await expect(page.locator('.counter')).toBeVisible();
  expect(warnings).toEqual([]);
  expect(wasm).toHaveLength(1);
  expectNoConsoleErrors(problems);
});
