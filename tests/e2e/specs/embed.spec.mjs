// Embedding on the release build: "Embed" gives an <iframe> snippet (with a title) for the
// current state; on a host page that iframe shows the same state as a compact player with no
// page chrome, fits a narrow column, and links back to the full view.
import AxeBuilder from '@axe-core/playwright';
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const STATE = '?s=refund-cap&v=read-then-write&t=8&cap=120&lang=en';

async function snippetFor(page) {
  await page.goto(STATE);
  await waitForApp(page);
  await page.getByRole('button', { name: 'Embed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Embed this state' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Copy embed code' })).toBeVisible();
  return dialog.getByRole('textbox', { name: 'Embed code' }).inputValue();
}

test('Embed gives a titled iframe snippet of the current state', async ({ page, context, problems }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const snippet = await snippetFor(page);
  expect(snippet).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?s=refund-cap&amp;v=read-then-write&amp;p=&amp;t=8&amp;lang=en&amp;cap=120&amp;embed=1" title="Refund cap: await interleaving in Node — Read, await, write · Effectively Once" width="640" height="400" style="border:0" loading="lazy"><\/iframe>$/);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expectNoConsoleErrors(problems);
});

test('the snippet on a host page shows the same state, compact and without chrome', async ({ page, browser, problems }) => {
  const snippet = (await snippetFor(page)).replace('width="640" height="400"', 'width="360" height="640"');
  const host = await browser.newPage({ viewport: { width: 420, height: 900 } });
  const hostErrors = [];
  host.on('console', (m) => { if (m.type() === 'error') hostErrors.push(m.text()); });
  await host.setContent(`<!doctype html><title>My notes</title><h1>Notes</h1><div style="width:360px">${snippet}</div>`);
  const frame = host.frameLocator('iframe[title^="Refund cap"]');
  await expect(frame.locator('.counter')).toHaveText('Step 8 of 10');
  // No page chrome: no scenario picker, variant radios, explorer or "Break it".
  await expect(frame.getByRole('combobox', { name: 'Scenario' })).toHaveCount(0);
  await expect(frame.getByRole('radiogroup', { name: 'Variant' })).toHaveCount(0);
  await expect(frame.getByRole('button', { name: 'Explore every run' })).toHaveCount(0);
  await expect(frame.getByRole('button', { name: 'Break it' })).toHaveCount(0);
  await expect(frame.locator('.embed-title')).toContainText('Refund cap: await interleaving in Node · Read, await, write');
  // The same state: cap 120 from the link, the violation at step 8.
  await expect(frame.locator('.figure')).toContainText('/ 120 cap');
  // The embed's verdicts are its strip (the invariants card does not fit a frame).
  await expect(frame.locator('.verdict-strip.side')).toContainText('violated at step 8');
  const full = frame.getByRole('link', { name: 'Open full view ↗' });
  await expect(full).toHaveAttribute('href', '?s=refund-cap&v=read-then-write&p=&t=8&lang=en&cap=120');
  // It fits the 360 px column: nothing wider than the frame.
  const overflow = await frame.locator('html').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // And it plays.
  await frame.getByRole('button', { name: 'Step back' }).click();
  await expect(frame.locator('.counter')).toHaveText('Step 7 of 10');
  expect(hostErrors).toEqual([]);
  await host.close();
  expectNoConsoleErrors(problems);
});

test('no axe violations in the embedded player', async ({ page, problems }) => {
  await page.setViewportSize({ width: 360, height: 720 });
  await page.goto('?s=dual-write&v=commit-then-publish&p=001&t=9&lang=zh&embed=1');
  await waitForApp(page);
  await expect(page.locator('.counter')).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  expectNoConsoleErrors(problems);
});

test('an embed says what its link asks that it cannot show, over the stage, until dismissed', async ({ page, problems }) => {
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto('?s=dual-write&v=nope&t=99&lang=en&embed=1');
  await waitForApp(page);
  const notice = page.getByRole('alert');
  await expect(notice).toContainText("There is no variant 'nope'");
  await expect(notice).toBeInViewport({ ratio: 1 });
  // Over the stage: the frame still does not scroll inside.
  const box = await page.locator('html').evaluate((el) => ({ sh: el.scrollHeight, ch: el.clientHeight }));
  expect(box.sh).toBeLessThanOrEqual(box.ch);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // t=99 went to the run's last step.
  await expect(page.locator('.counter')).toHaveText(/^Step (\d+) of \1$/);
  // A link with nothing wrong shows none.
  await page.goto('?s=dual-write&v=outbox&lang=en&embed=1');
  await waitForApp(page);
  await expect(page.locator('.notice')).toHaveCount(0);
  expectNoConsoleErrors(problems);
});

test('no axe violations with the Embed dialog open, in Chinese, dark', async ({ page, problems }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('?s=outbox-relay&v=inbox&t=5&lang=zh');
  await waitForApp(page);
  await page.getByRole('button', { name: '嵌入' }).click();
  await expect(page.getByRole('dialog', { name: '嵌入当前状态' })).toBeVisible();
  // The preview's own page (the embedded player) has its own axe test above; inside the dialog
  // its landmarks would be counted against the page's.
  const results = await new AxeBuilder({ page }).exclude('.embed-preview iframe').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await page.getByRole('button', { name: '关闭' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expectNoConsoleErrors(problems);
});
