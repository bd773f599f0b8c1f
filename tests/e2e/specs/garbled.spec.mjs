// 200 seeded garbled deep links: each one opens to a working player (or, when it names nothing
// at all, to the home page, as a bare address does), says what was wrong when something was,
// and logs no error.
import { test, expect, expectNoConsoleErrors } from './helpers.mjs';

const PIECES = ['s=', 'v=', 'p=', 't=', 'lang=', '&', '=', '%', '%2', '%zz', '%E2%9C%93', '+', 'dual-write',
  'outbox', 'publish-then-commit', 'zh', 'en', '0', '1', 'z', '99999', '-1', '%3Cscript%3Ealert(1)%3C/script%3E',
  '%22', "'", '%E4%B8%AD', '#', '..', '%20'];

test('200 garbled deep links each open a working player or the home page', async ({ page, problems }) => {
  test.setTimeout(180_000);
  let seed = 4242;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let withNotice = 0;
  let homes = 0;
  page.on('dialog', () => { throw new Error('a dialog opened: script ran from the URL'); });
  for (let i = 0; i < 200; i++) {
    const parts = Array.from({ length: 1 + next(7) }, () => PIECES[next(PIECES.length)]);
    const url = `?${parts.join('')}`;
    await page.goto(url, { waitUntil: 'load' });
    await expect(page.locator('main.home, .controls .counter').first(), url).toBeVisible();
    if (await page.locator('main.home').isVisible()) {
      homes++;
      continue;
    }
    const counter = page.locator('.counter');
    await expect(counter, url).toHaveText(/^(Step \d+ of \d+|第 \d+ 步，共 \d+ 步)$/);
    if (await page.getByRole('alert').count()) withNotice++;
    // Still interactive: the first transport control after Play moves the run.
    await page.locator('#step-forward').click();
  }
  // Many garbled strings are harmless (an empty `s=` means the default); the rest must say so.
  expect(withNotice, 'garbled links with a notice').toBeGreaterThan(0);
  test.info().annotations.push({ type: 'notices', description: `${withNotice} of 200` });
  expect(homes, 'most garbled links still name a state').toBeLessThan(100);
  // No script but the page's own three in <head>: Trunk's module, the service-worker
  // registration and the loading shell's language pick.
  expect(await page.locator('body script').count()).toBe(0);
  expect(await page.locator('head script').count()).toBe(3);
  // Navigating on after `load` can cancel the favicon request of the page being left: that is
  // this test's doing (ERR_ABORTED), not the app's.
  problems.failedRequests = problems.failedRequests.filter((r) => !r.endsWith('net::ERR_ABORTED'));
  expectNoConsoleErrors(problems);
});
