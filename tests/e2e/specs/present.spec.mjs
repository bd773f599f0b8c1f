// Presenter mode on the release build: the clicker keys advance; a step that breaks an
// invariant is first a question to the room and the next key reveals it; speaker notes in both
// languages; Escape leaves.
import { test, expect, expectNoConsoleErrors, waitForApp, clickHeader } from './helpers.mjs';

test('present: keys advance, predict before the violation, reveal on the next key, notes, exit', async ({ page, problems }) => {
  await page.goto('?s=dual-write&v=commit-then-publish&p=001&t=0&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Present', exact: true }).click();
  await expect(page.locator('.app')).toHaveClass(/present/);
  const bar = page.locator('.present-bar');
  await expect(bar).toContainText('Dual write vs transactional outbox');
  // The shortcuts are announced as such, not read out as part of the buttons' names.
  await expect(bar.getByRole('button', { name: 'Speaker notes', exact: true })).toHaveAttribute('aria-keyshortcuts', 'N');
  await expect(bar.getByRole('button', { name: 'Exit presenter', exact: true })).toHaveAttribute('aria-keyshortcuts', 'Escape');
  // The page chrome is gone; the player stays.
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeHidden();
  const counter = page.locator('.counter');
  let asked = false;
  for (let i = 0; i < 12 && !asked; i++) {
    const before = await counter.textContent();
    await page.keyboard.press('PageDown');
    if (await page.locator('.predict').count()) {
      asked = true;
      // The question did not move the player.
      await expect(counter).toHaveText(before);
      await expect(page.locator('.predict')).toContainText('Predict first');
      await expect(page.locator('.predict li')).toHaveText(['no lost event', 'no phantom event']);
      await page.keyboard.press('PageDown');
      await expect(page.locator('.predict')).toHaveCount(0);
      await expect(counter).not.toHaveText(before);
      await expect(page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: 'no lost event' })).toContainText('violated');
    }
  }
  expect(asked).toBe(true);
  // Speaker notes, drawn from the seeds' answers, in both languages.
  await page.keyboard.press('n');
  const notes = page.getByRole('complementary', { name: 'Speaker notes' });
  await expect(notes).toContainText('Write the business row and an outbox row in one local transaction');
  await expect(notes).toContainText("Don't say");
  await page.keyboard.press('Escape');
  await expect(page.locator('.app')).not.toHaveClass(/present/);
  await page.goto('?s=checkpoint-replay&v=rerun-node&lang=zh');
  await waitForApp(page);
  await page.getByRole('button', { name: '演示', exact: true }).click();
  await page.keyboard.press('n');
  await expect(page.getByRole('complementary', { name: '演讲备注' })).toContainText('checkpoint 就是 exactly-once');
  expectNoConsoleErrors(problems);
});

// The notes are fetched on entering presenter mode (notes.json): with the network gone they say
// so in the notes panel, and Try again loads them.
// On a phone the presenter's three buttons share one row under the title, in both languages.
test('presenter bar on a phone: one row of buttons', async ({ page, problems }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [lang, name] of [['en', 'Present'], ['zh', '演示']]) {
    await page.goto(`?s=unknown-outcome&v=mark-failed-new-key&lang=${lang}`);
    await waitForApp(page);
    await clickHeader(page, name);
    const tops = await page.locator('.present-bar .btn').evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(tops).toHaveLength(3);
    expect(new Set(tops).size, `${lang}: button tops ${tops}`).toBe(1);
    await page.keyboard.press('Escape');
  }
  expectNoConsoleErrors(problems);
});

test('speaker notes that do not load: the reason in the notes, and Try again loads them', async ({ page, problems }) => {
  let fail = true;
  await page.route('**/notes.json', (route) => (fail ? route.abort('internetdisconnected') : route.continue()));
  await page.goto('?s=dual-write&v=commit-then-publish&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Present', exact: true }).click();
  await page.keyboard.press('n');
  const notes = page.getByRole('complementary', { name: 'Speaker notes' });
  await expect(notes.getByRole('alert')).toHaveText('The speaker notes could not be loaded (network error). Check the connection and try again.');
  fail = false;
  await notes.getByRole('button', { name: 'Try again' }).click();
  await expect(notes).toContainText('Write the business row and an outbox row in one local transaction');
  expect(problems.failedRequests).toEqual([expect.stringMatching(/notes\.json: net::ERR_INTERNET_DISCONNECTED$/)]);
  expectNoConsoleErrors({ ...problems, failedRequests: [], consoleErrors: problems.consoleErrors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED')) });
});

// The audience window: the presenter opens it to share with the room. It follows the
// presenter's steps, language and prediction over a BroadcastChannel; it never shows the speaker
// notes or the presenter's buttons, and its own keys do nothing.
test('audience window: follows steps, prediction and language; no notes, no controls', async ({ page, problems }) => {
  await page.goto('?s=dual-write&v=commit-then-publish&p=001&t=0&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Present', exact: true }).click();
  const [aud] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Audience window', exact: true }).click(),
  ]);
  const audErrors = [];
  aud.on('console', (m) => { if (m.type() === 'error') audErrors.push(m.text()); });
  aud.on('pageerror', (e) => audErrors.push(String(e)));
  await waitForApp(aud);
  await expect(aud.locator('.app')).toHaveClass(/audience/);
  await expect(aud.locator('.present-bar')).toContainText("Audience view: follows the presenter's window");
  await expect(aud.locator('.present-bar')).toContainText('Dual write vs transactional outbox');
  await expect(aud.getByRole('button', { name: 'Speaker notes' })).toHaveCount(0);
  await expect(aud.locator('.controls')).toBeHidden();
  const step = (p) => new URL(p.url()).searchParams.get('t');
  // The presenter steps; the audience follows, step by step, until the prediction.
  let asked = false;
  for (let i = 0; i < 12 && !asked; i++) {
    await page.keyboard.press('PageDown');
    if (await page.locator('.predict').count()) {
      asked = true;
      await expect(aud.locator('.predict')).toContainText('Predict first');
      await expect(aud.locator('.predict')).toContainText('The presenter reveals it next.');
      await expect(aud.locator('.predict').getByRole('button')).toHaveCount(0);
    } else {
      await expect.poll(() => step(aud)).toBe(step(page));
    }
  }
  expect(asked).toBe(true);
  await page.keyboard.press('PageDown');
  await expect(aud.locator('.predict')).toHaveCount(0);
  await expect.poll(() => step(aud)).toBe(step(page));
  await expect(aud.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: 'no lost event' })).toContainText('violated');
  // The notes stay with the presenter.
  await page.keyboard.press('n');
  await expect(page.getByRole('complementary', { name: 'Speaker notes' })).toBeVisible();
  await expect(aud.locator('.notes')).toHaveCount(0);
  // The audience window's keys do nothing.
  const before = step(aud);
  await aud.keyboard.press('PageDown');
  await aud.keyboard.press('Escape');
  await expect(aud.locator('.app')).toHaveClass(/present/);
  expect(step(aud)).toBe(before);
  // Another language, and another scenario, follow too.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '中文', exact: true }).click();
  await page.getByRole('combobox', { name: '场景' }).selectOption({ index: 1 });
  await expect.poll(() => new URL(page.url()).searchParams.get('s')).toBe('outbox-relay');
  await page.getByRole('button', { name: '演示', exact: true }).click();
  await expect(aud.locator('.present-bar')).toContainText('观众视图');
  await expect.poll(() => new URL(aud.url()).searchParams.get('s')).toBe(new URL(page.url()).searchParams.get('s'));
  expect(audErrors).toEqual([]);
  expectNoConsoleErrors(problems);
});

// A room reads it: at 1280×720 no text on screen is under 16 px, the drawing's included.
test('presenter mode at 1280×720: no visible text under 16 px', async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const lang of ['en', 'zh']) {
    await page.goto(`?s=dual-write&v=commit-then-publish&p=001&t=9&lang=${lang}`);
    await waitForApp(page);
    await clickHeader(page, lang === 'en' ? 'Present' : '演示');
    await expect(page.locator('.present-bar')).toBeVisible();
    const small = await page.evaluate(() => {
      const out = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) {
        const el = walk.currentNode.parentElement;
        if (!walk.currentNode.textContent.trim() || !el || el.closest('.sr-only, title, option')) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue;
        const cs = getComputedStyle(el);
        if (cs.visibility === 'hidden' || cs.display === 'none') continue;
        const px = parseFloat(cs.fontSize);
        if (px < 16) out.push(`${px}px ${el.tagName}.${el.getAttribute('class') ?? ''}: ${walk.currentNode.textContent.trim().slice(0, 30)}`);
      }
      return out;
    });
    expect(small, `${lang}: text under 16 px`).toEqual([]);
    await page.keyboard.press('Escape');
  }
  expectNoConsoleErrors(problems);
});
