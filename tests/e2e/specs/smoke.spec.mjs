import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

test('home page loads without console errors or failed requests', async ({ page, problems }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  const state = await waitForApp(page);
  test.info().annotations.push({ type: 'app-state', description: state });

  await expect(page).toHaveTitle(/Effectively Once/);
  expectNoConsoleErrors(problems);
});
