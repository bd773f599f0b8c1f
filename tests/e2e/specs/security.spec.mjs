// Security on the release build: a strict Content-Security-Policy (no inline script but Trunk's
// module and the loading shell's language pick, by hash; no eval; no style attributes) that every flow runs under without a violation —
// every other spec also fails on the console error a violation prints — and script payloads
// through every URL parameter, shown as text and never run.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../../dist');

test('the built page carries a strict Content-Security-Policy', async () => {
  const html = readFileSync(resolve(dist, 'index.html'), 'utf8');
  const policy = html.match(/<meta http-equiv=["']?Content-Security-Policy["']? content="([^"]+)"/i)?.[1];
  expect(policy, 'a CSP meta tag').toBeTruthy();
  const script = policy.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
  expect(script).toMatch(/^script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]+' 'sha256-[A-Za-z0-9+/=]+'$/);
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain("'unsafe-eval'");
  expect(policy).toContain("style-src 'self'");
  expect(policy).toContain("object-src 'none'");
});

test('every feature runs under the policy without a violation', async ({ page, problems }) => {
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  await page.goto('?s=outbox-relay&v=no-dedup&lang=en');
  await waitForApp(page);
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('4×');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForTimeout(1500);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.exp-totals')).toBeVisible();
  await page.getByRole('button', { name: /^Compare side by side/ }).click();
  await expect(page.locator('.compare')).toBeVisible();
  await page.getByRole('button', { name: 'Break it' }).click();
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption({ label: 'Refund cap: await interleaving in Node' });
  const cap = page.getByRole('spinbutton', { name: 'Refundable cap' });
  await cap.fill('150');
  await cap.press('Enter');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await page.getByRole('button', { name: '中文' }).click();
  expect(await page.evaluate(() => window.__csp)).toEqual([]);
  expectNoConsoleErrors(problems);
});

const payloads = [
  '<img src=x onerror="window.__xss=1">',
  '"><script>window.__xss=1</script>',
  "javascript:window.__xss=1",
  '<svg onload="window.__xss=1">',
];
const params = ['s', 'v', 'p', 't', 'lang', 'cmp', 'mode', 'cap', 'amount-a', 'layers', 'downstream'];
// A link with only a language is a first visit (the home page): name a scenario with it.
const owner = { cap: 'refund-cap', 'amount-a': 'refund-cap', layers: 'retry-layers', downstream: 'retry-layers', lang: 'dual-write' };

test('script payloads in every URL parameter are shown as text and never run', async ({ page, problems }) => {
  test.setTimeout(120_000);
  for (const payload of payloads) {
    for (const key of params) {
      const scenario = owner[key] ? `s=${owner[key]}&` : '';
      await page.goto(`?${scenario}${key}=${encodeURIComponent(payload)}`);
      await expect(page.locator('.counter')).toBeVisible();
      // Each gets a notice, which shows the payload (or where it stopped being valid) as text.
      await expect(page.locator('.notice').first()).toBeVisible();
      expect(await page.locator('main img, main script, main svg[onload], main iframe').count()).toBe(0);
      expect(await page.evaluate(() => window.__xss)).toBeUndefined();
    }
    // An audience window's id is letters and digits; anything else opens the plain player.
    await page.goto(`?audience=${encodeURIComponent(payload)}`);
    await expect(page.locator('.counter')).toBeVisible();
    await expect(page.locator('.app')).not.toHaveClass(/audience/);
    expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  }
  expectNoConsoleErrors(problems);
});
