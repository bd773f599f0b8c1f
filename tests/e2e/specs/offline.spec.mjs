// Offline and installable on the release build: after the first visit the service worker has the
// whole app, so with the network gone a deep link still opens, plays, and explores (the
// explorer's worker comes from the cache too); the manifest names the app and its icons.
import { test, expect, waitForApp } from './helpers.mjs';

test.use({ serviceWorkers: 'allow' });

test('after one visit the app opens, plays and explores with no network', async ({ page, context }) => {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 15_000 });

  await context.setOffline(true);
  await page.goto('?s=refund-cap&v=conditional-update&t=3&lang=en');
  await expect(page.locator('.counter')).toHaveText('Step 3 of 6');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(page.getByRole('region', { name: 'Invariants' })).toContainText('holds');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.exp-results')).toContainText('20 distinct states · 20 runs');
  // The text fetched on demand (quiz.json) is precached too.
  await page.getByRole('button', { name: 'Quiz', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Interview questions' }).getByRole('region', { name: /^1\. A payment call was sent/ })).toBeVisible();
  await context.setOffline(false);
  expect(errors).toEqual([]);
});

test('the web app manifest names the app, its start URL and its icons', async ({ page }) => {
  await page.goto('./');
  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  const manifest = await page.evaluate((h) => fetch(h).then((r) => r.json()), href);
  expect(manifest).toMatchObject({ name: 'Effectively Once', start_url: './', scope: './', display: 'standalone' });
  const sizes = manifest.icons.map((i) => i.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) {
    const status = await page.evaluate((src) => fetch(src).then((r) => r.status), icon.src);
    expect(status, icon.src).toBe(200);
  }
});
