// A seeded random walk over every button, the scrubber and the keys: with panic = "abort" one
// panic would kill the page, so after each action the page must still be alive and quiet.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

test('200 seeded random actions never break the page', async ({ page, problems }) => {
  test.setTimeout(120_000);
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  let seed = 20261202;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const keys = ['ArrowRight', 'ArrowLeft', 'Home', 'End', 'PageDown', 'PageUp', '.'];
  for (let i = 0; i < 200; i++) {
    const kind = next(4);
    if (kind === 0) {
      await page.keyboard.press(keys[next(keys.length)]);
    } else if (kind === 1) {
      const slider = page.getByRole('slider', { name: 'Timeline position' });
      const max = Number(await slider.getAttribute('max'));
      await slider.fill(String(next(max + 1)));
    } else {
      // Any visible button except Copy link (clipboard) and the language switch (kept English).
      const buttons = page.locator('button:visible').filter({ hasNotText: /Copy link|中文|English/ });
      const count = await buttons.count();
      if (count > 0) await buttons.nth(next(count)).click();
    }
    await expect(page.locator('.counter')).toHaveText(/^Step \d+ of \d+$/);
  }
  await expect(page.getByRole('button', { name: /Play|Pause/ })).toBeVisible();
  expectNoConsoleErrors(problems);
});
