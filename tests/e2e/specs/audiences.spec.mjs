// The three audiences, driven as each of them would: a first visit that reaches a failure
// through "Watch it fail", a presenter with a clicker, a note-taker's embeds in a plain notes
// page (and a phone); and Back, which everyone uses.
import { test, expect, expectNoConsoleErrors, waitForApp, clickHeader } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const invariant = (page, name) => page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: name });

test('a first visit: the bare address, Start here, and the failure plays by itself', async ({ page, problems }) => {
  await page.goto('./');
  await waitForApp(page);
  const start = page.getByRole('link', { name: /Start here/ });
  await expect(start).toBeVisible();
  await start.click();
  await waitForApp(page);
  // Watch it fail: the canonical failing path plays and stops where it breaks.
  await expect(invariant(page, 'no lost event')).toContainText('violated at step 7', { timeout: 15_000 });
  await expect(counter(page)).toHaveText('Step 7 of 7');
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await expect(page.locator('.figure')).toHaveClass(/violated/);
  expectNoConsoleErrors(problems);
});

test('every failing variant offers Watch it fail and a hint; a fix offers only the hint', async ({ page, problems }) => {
  await page.goto('?s=dual-write&v=publish-then-commit&lang=en');
  await waitForApp(page);
  await expect(page.locator('.coach')).toContainText('Try: step to 2, then ⚡ crash the order service before it commits.');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByRole('button', { name: 'Watch it fail' }).click();
  await expect(invariant(page, 'no phantom event')).toContainText('violated at step 3', { timeout: 10_000 });
  await expect(counter(page)).toHaveText(/^Step 3 of/);
  await page.getByRole('radio', { name: /Transactional outbox/ }).click();
  await expect(page.getByRole('button', { name: 'Watch it fail' })).toHaveCount(0);
  await expect(page.locator('.coach')).toContainText('no event is lost');
  expectNoConsoleErrors(problems);
});

test('a presenter with a clicker: PageDown alone reaches the violation, predicting first', async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('?s=dual-write&v=commit-then-publish&lang=en');
  await waitForApp(page);
  await clickHeader(page, 'Present');
  let predicted = false;
  for (let i = 0; i < 12; i++) {
    if (await page.locator('.predict').isVisible()) {
      predicted = true;
      // Nothing on screen gives the answer away while the room predicts.
      await expect(page.locator('.scrubber .marks')).toBeHidden();
    }
    if ((await invariant(page, 'no lost event').textContent()).includes('violated')) break;
    await page.keyboard.press('PageDown');
  }
  expect(predicted).toBe(true);
  await expect(invariant(page, 'no lost event')).toContainText('violated at step 7');
  expectNoConsoleErrors(problems);
});

test("a note-taker's embeds in a plain notes page: both sizes fit, verdict in view, light on a light page", async ({ page, browser, problems }) => {
  const base = new URL(test.info().project.use.baseURL);
  const host = await browser.newPage({ viewport: { width: 1100, height: 1400 }, colorScheme: 'dark' });
  const errors = [];
  host.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const src = (q) => new URL(q, base).href;
  await host.setContent(`<!doctype html><title>Notes</title><body style="background:#fff"><h1>Notes</h1>
    <iframe id="a" title="Dual write" width="640" height="400" style="border:0" src="${src('?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en&embed=1')}"></iframe>
    <iframe id="b" title="Refund cap" width="360" height="640" style="border:0" src="${src('?s=refund-cap&v=read-then-write&t=8&lang=zh&embed=1')}"></iframe></body>`);
  for (const [id, inv] of [['a', 'no lost event'], ['b', '退款不超过上限']]) {
    const frame = host.frameLocator(`#${id}`);
    await expect(frame.locator('.counter')).toBeVisible();
    const box = await frame.locator('html').evaluate((el) => ({ sh: el.scrollHeight, ch: el.clientHeight, sw: el.scrollWidth, cw: el.clientWidth }));
    expect(box.sh, `${id}: no scrolling inside the frame`).toBeLessThanOrEqual(box.ch);
    expect(box.sw).toBeLessThanOrEqual(box.cw);
    for (const part of ['.tl-svg', '.verdict-strip.side', '.controls']) {
      await expect(frame.locator(part), `${id}: ${part}`).toBeInViewport({ ratio: 0.9 });
    }
    await expect(frame.locator('.verdict-strip.side li', { hasText: inv })).toBeVisible();
    // Light on a light page, whatever the reader's system says (the host page is dark-mode).
    const bg = await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg, id).toBe('rgb(244, 246, 249)');
  }
  await expect(host.frameLocator('#a').locator('.verdict-strip.side li', { hasText: 'no lost event' })).toContainText('violated at step 9');
  expect(errors).toEqual([]);
  await host.close();
  expectNoConsoleErrors(problems);
});

test('theme=dark darkens an embed; an unknown theme gets a notice and the default', async ({ page, problems }) => {
  await page.goto('?s=dual-write&lang=en&embed=1&theme=dark');
  await waitForApp(page);
  expect(await page.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(15, 20, 26)');
  await page.goto('?s=dual-write&lang=en&theme=purple');
  await waitForApp(page);
  await expect(page.locator('.notice')).toContainText("'theme=purple' is not light, dark or auto");
  expectNoConsoleErrors(problems);
});

test('the Embed dialog: sizes, colours, a live preview, and the snippet to match', async ({ page, problems }) => {
  await page.goto('?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Embed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Embed this state' });
  const code = dialog.getByRole('textbox', { name: 'Embed code' });
  await expect(code).toHaveValue(/width="640" height="400" style="border:0" loading="lazy"/);
  await expect(dialog.frameLocator('iframe[title="Preview of the embedded player"]').locator('.counter')).toHaveText('Step 9 of 9');
  await dialog.getByLabel('Tall, 360 × 640').check();
  await dialog.getByLabel('Dark').check();
  await expect(code).toHaveValue(/&amp;embed=1&amp;theme=dark" title="Dual write vs transactional outbox — Commit then publish · Effectively Once" width="360" height="640"/);
  await expect(dialog.locator('iframe')).toHaveAttribute('height', '640');
  expectNoConsoleErrors(problems);
});

test('a phone: one header row, the verdicts pinned in the player bar while stepping', async ({ page, problems }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('?s=dual-write&v=commit-then-publish&p=001&t=2&lang=en');
  await waitForApp(page);
  const header = await page.locator('header.top:not(.embed-bar)').boundingBox();
  expect(header.height).toBeLessThan(70);
  const strip = page.locator('.verdict-strip.bar');
  for (let i = 0; i < 7; i++) {
    await expect(strip).toBeInViewport();
    await page.getByRole('button', { name: 'Step forward' }).click();
  }
  await expect(strip.locator('li').first()).toContainText('no lost event');
  await expect(strip.locator('li').first()).toContainText('violated at step 9');
  // The other actions are behind "⋯".
  await expect(page.getByRole('button', { name: 'Quiz', exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'More actions' }).click();
  await expect(page.getByRole('button', { name: 'Quiz', exact: true })).toBeVisible();
  expectNoConsoleErrors(problems);
});

test('Back returns to the variant and the scenario before; steps do not pile up', async ({ page, problems }) => {
  await page.goto('?s=dual-write&v=commit-then-publish&lang=en');
  await waitForApp(page);
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('radio', { name: /Transactional outbox/ }).click();
  await expect(page).toHaveURL(/v=outbox/);
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption({ label: 'Refund cap: await interleaving in Node' });
  await expect(page).toHaveURL(/s=refund-cap/);
  await page.goBack();
  await expect(page).toHaveURL(/s=dual-write&v=outbox/);
  await expect(page.getByRole('radio', { name: /Transactional outbox/ })).toHaveAttribute('aria-checked', 'true');
  await page.goBack();
  await expect(page).toHaveURL(/v=commit-then-publish/);
  await expect(counter(page)).toHaveText(/^Step 3 of/);
  await page.goForward();
  await expect(page.getByRole('radio', { name: /Transactional outbox/ })).toHaveAttribute('aria-checked', 'true');
  expectNoConsoleErrors(problems);
});
