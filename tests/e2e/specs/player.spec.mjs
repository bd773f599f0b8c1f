// The player driven like a person, by roles and accessible names, on the release build.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const tables = (page) => page.locator('.tables');
const invariants = (page) => page.getByRole('region', { name: 'Invariants' });
const stepIs = async (page, n) => expect(counter(page)).toHaveText(new RegExp(`^Step ${n} of \\d+$`));

async function open(page, query = '?s=dual-write&lang=en') {
  await page.goto(query);
  await waitForApp(page);
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
}

test('every control has its accessible name', async ({ page, problems }) => {
  await open(page);
  for (const name of ['Play', 'Step back', 'Step forward', 'Go to start', 'Go to end', 'Copy link']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('slider', { name: 'Timeline position' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Speed' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Variant' })).toBeVisible();
  expectNoConsoleErrors(problems);
});

test('the first frame draws the figure, the timeline and the moves; the words and tables come a frame later', async ({ page, problems }) => {
  // What the page's first frame lays out, read in a frame callback (it runs before that frame's
  // layout) requested as soon as the stage is in the document.
  await page.addInitScript(() => {
    new MutationObserver((_, seen) => {
      if (!document.querySelector('.stage')) return;
      seen.disconnect();
      requestAnimationFrame(() => {
        const shown = (sel) => document.querySelector(sel).checkVisibility();
        window.firstFrame = Object.fromEntries(['.card.figure', '.card.timeline', '.card.choices',
          '.card.narration', '.card.knobs', '.card.invariants', '.card.state'].map((sel) => [sel, shown(sel)]));
      });
    }).observe(document, { childList: true, subtree: true });
  });
  await open(page, '?s=retry-layers&lang=en');
  expect(await page.evaluate(() => window.firstFrame)).toEqual({
    '.card.figure': true, '.card.timeline': true, '.card.choices': true,
    '.card.narration': false, '.card.knobs': false, '.card.invariants': false, '.card.state': false,
  });
  for (const card of ['.card.narration', '.card.knobs', '.card.invariants', '.card.state']) {
    await expect(page.locator(card)).toBeVisible();
  }
  expectNoConsoleErrors(problems);
});

test('play advances the run, pause stops it', async ({ page, problems }) => {
  await open(page);
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('4×');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(counter(page)).not.toHaveText(/^Step 0 /);
  await page.getByRole('button', { name: 'Pause' }).click();
  const paused = await counter(page).textContent();
  await page.waitForTimeout(600);
  await expect(counter(page)).toHaveText(paused);
  expectNoConsoleErrors(problems);
});

test('step back restores the tables exactly', async ({ page, problems }) => {
  await open(page);
  const forward = page.getByRole('button', { name: 'Step forward' });
  await forward.click();
  await forward.click();
  await stepIs(page, 2);
  const before = await tables(page).innerText();
  await forward.click();
  await stepIs(page, 3);
  expect(await tables(page).innerText()).not.toEqual(before);
  await page.getByRole('button', { name: 'Step back' }).click();
  await stepIs(page, 2);
  expect(await tables(page).innerText()).toEqual(before);
  expectNoConsoleErrors(problems);
});

test('a crash between commit and publish violates "no lost event"; the outbox holds', async ({ page, problems }) => {
  await open(page);
  const forward = page.getByRole('button', { name: 'Step forward' });
  await forward.click();
  await forward.click();
  await page.getByRole('button', { name: 'Crash order service' }).click();
  await stepIs(page, 3);
  await expect(page.locator('.narration')).toContainText('crashes after COMMIT and before publishing');
  await expect(invariants(page)).toContainText('pending');
  await page.getByRole('button', { name: 'Go to end' }).click();
  const lost = invariants(page).locator('li', { hasText: 'no lost event' });
  await expect(lost).toContainText(/violated at step \d+/);
  await expect(lost).toContainText('Order 17 is committed but its event e-17 is not in the broker');
  await expect(lost).toContainText('Cause: step 3');
  await lost.getByRole('button', { name: 'Jump to step 3' }).click();
  await stepIs(page, 3);

  // Back to before the crash, then the same crash on the transactional outbox.
  await page.getByRole('button', { name: 'Step back' }).click();
  await stepIs(page, 2);
  await page.getByRole('radio', { name: /Transactional outbox/ }).click();
  await expect(page.getByRole('radio', { name: /Transactional outbox/ })).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('.lanes')).toContainText('Relay');
  await stepIs(page, 2);
  await page.getByRole('button', { name: 'Crash order service' }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(invariants(page).locator('li.holds')).toHaveCount(2);
  await expect(invariants(page)).not.toContainText('violated');
  expectNoConsoleErrors(problems);
});

test('a relay crash after publish shows the duplicate delivery', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=outbox&lang=en');
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < 7; i++) await forward.click(); // through the relay's first publish
  await expect(page.getByRole('button', { name: 'Crash relay' })).toBeVisible();
  await page.getByRole('button', { name: 'Crash relay' }).click();
  await expect(page.locator('.lanes')).toContainText('down');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(tables(page)).toContainText('duplicate delivery');
  await expect(invariants(page).locator('li.holds')).toHaveCount(2);
  expectNoConsoleErrors(problems);
});

test('publish then roll back violates "no phantom event" at once', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=publish-then-commit&lang=en');
  const forward = page.getByRole('button', { name: 'Step forward' });
  await forward.click();
  await forward.click();
  await page.getByRole('button', { name: 'Roll back transaction' }).click();
  const phantom = invariants(page).locator('li', { hasText: 'no phantom event' });
  await expect(phantom).toContainText('violated at step 3');
  await expect(phantom).toContainText('Event e-17 is in the broker, but order 17 does not exist');
  expectNoConsoleErrors(problems);
});

test('reloading a deep link restores the exact state, and the URL does not flood history', async ({ page, problems }) => {
  await open(page);
  const forward = page.getByRole('button', { name: 'Step forward' });
  await forward.click();
  await forward.click();
  await page.getByRole('button', { name: 'Crash order service' }).click();
  await forward.click();
  await stepIs(page, 4);
  const url = page.url();
  expect(url).toContain('s=dual-write');
  expect(url).toContain('v=commit-then-publish');
  expect(url).toMatch(/p=001(&|$)/);
  expect(url).toContain('t=4');
  const state = { tables: await tables(page).innerText(), inv: await invariants(page).innerText() };
  expect(await page.evaluate(() => history.length)).toBeLessThanOrEqual(2);
  await page.reload();
  await waitForApp(page);
  await stepIs(page, 4);
  expect(await tables(page).innerText()).toEqual(state.tables);
  expect(await invariants(page).innerText()).toEqual(state.inv);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expectNoConsoleErrors(problems);
});

test('a garbled link shows a dismissible notice and falls back to a valid state', async ({ page, problems }) => {
  await open(page, '?s=nope&v=%3Cscript%3E&p=00%21%21&t=abc&lang=xx');
  const notice = page.getByRole('alert');
  await expect(notice).toContainText("There is no scenario 'nope'");
  await expect(notice).toContainText("step 't=abc' is not a number");
  await expect(notice).toContainText("'lang=xx' is not supported");
  await expect(notice).toContainText('path stops being valid at step 2');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await stepIs(page, 0);
  await page.getByRole('button', { name: 'Step forward' }).click();
  await stepIs(page, 1);
  expect(page.url()).toContain('v=commit-then-publish');
  // A step past the end is clamped, with a word about it.
  await open(page, '?s=dual-write&t=999&lang=en');
  await expect(page.getByRole('alert')).toContainText('asks for step 999');
  await expect(counter(page)).toHaveText(/^Step (\d+) of \1$/);
  expectNoConsoleErrors(problems);
});

test('the keyboard drives the player', async ({ page, problems }) => {
  await open(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await stepIs(page, 1);
  await page.keyboard.press('PageDown');
  await stepIs(page, 2);
  await page.keyboard.press('PageUp');
  await stepIs(page, 1);
  await page.keyboard.press('End');
  await expect(counter(page)).toHaveText(/^Step (\d+) of \1$/);
  await page.keyboard.press('Home');
  await stepIs(page, 0);
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press('.');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  await page.keyboard.press('Home');
  await stepIs(page, 0);
  // Tab reaches the transport controls, and Enter on a focused button activates it.
  await page.getByRole('button', { name: 'Go to start' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Step forward' })).toBeFocused();
  await page.keyboard.press('Enter');
  await stepIs(page, 1);
  expectNoConsoleErrors(problems);
});

test('Chinese throughout, chosen by the switch or the URL', async ({ page, problems }) => {
  await open(page);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(page.getByRole('button', { name: '播放' })).toBeVisible();
  await page.getByRole('button', { name: '前进一步' }).click();
  await expect(page.locator('.narration')).toContainText('订单 17 到达');
  expect(page.url()).toContain('lang=zh');
  await page.reload();
  await waitForApp(page);
  await expect(page.getByRole('button', { name: '播放' })).toBeVisible();
  expectNoConsoleErrors(problems);
});

test('Copy link puts the current state on the clipboard', async ({ page, context, problems }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page);
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status')).toHaveText('Link copied to the clipboard.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());
  expect(copied).toContain('t=1');
  expectNoConsoleErrors(problems);
});

test('clicking a step on the timeline seeks to it', async ({ page, problems }) => {
  await open(page);
  const timeline = page.getByRole('img', { name: /^Timeline/ });
  const box = await timeline.boundingBox();
  // Where column 2 is drawn (the columns fit the width, so it is read from the drawing).
  const col = await page.locator('.tl-svg .col .hit').nth(2).boundingBox();
  await timeline.click({ position: { x: col.x - box.x + col.width / 2, y: Math.min(60, box.height - 5) } });
  await stepIs(page, 2);
  expectNoConsoleErrors(problems);
});

test('reduced motion jumps instead of animating', async ({ page, problems }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open(page);
  await page.getByRole('button', { name: 'Step forward' }).click();
  // With reduced motion the arrow is complete at once: no travelling dot is ever drawn.
  await expect(page.locator('.tl-stack .dot')).toHaveCount(0);
  await expect(page.locator('.tl-stack .msg line[marker-end]')).toHaveCount(1);
  expectNoConsoleErrors(problems);
});

test('the site works from a sub-path (relative asset URLs)', async ({ page, problems }) => {
  const { SUB_URL } = await import('../playwright.config.mjs');
  await page.goto(`${SUB_URL}?s=dual-write&v=outbox&t=3&lang=en`);
  await waitForApp(page);
  await stepIs(page, 3);
  await expect(page.locator('link[rel=icon]')).toHaveAttribute('href', /^(\.\/)?favicon\.svg$/);
  expectNoConsoleErrors(problems);
});

test('keyboard focus stays in the panel after a fault or a jump', async ({ page, problems }) => {
  await open(page);
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Crash order service' }).focus();
  await page.keyboard.press('Enter');
  await stepIs(page, 3);
  await expect(page.locator('.choices button').first()).toBeFocused();
  await page.keyboard.press('Enter'); // the first move of step 3: restart the order service
  await stepIs(page, 4);
  await page.getByRole('button', { name: 'Go to end' }).click();
  await page.getByRole('button', { name: 'Jump to step 3' }).focus();
  await page.keyboard.press('Enter');
  await stepIs(page, 3);
  await expect(page.getByRole('slider', { name: 'Timeline position' })).toBeFocused();
  expectNoConsoleErrors(problems);
});

test('the current step is scrolled into view, also on a deep link to the end', async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, '?s=dual-write&v=outbox&t=12&lang=en');
  const scroller = await page.getByRole('img', { name: /^Timeline/ }).boundingBox();
  const current = page.locator('.tl-svg .col.current text');
  await expect(current).toHaveText('12');
  await expect(async () => {
    const col = await current.boundingBox();
    expect(col.x).toBeGreaterThanOrEqual(scroller.x);
    expect(col.x + col.width).toBeLessThanOrEqual(scroller.x + scroller.width);
  }).toPass({ timeout: 3000 });
  expectNoConsoleErrors(problems);
});

test('a step on a long run changes a few timeline elements, not the whole drawing', async ({ page, problems }) => {
  // retry-layers with 4 layers × 5 attempts: 625 calls. Fitted to the width, the drawing is a
  // window of the run; with wide columns it is thousands of elements. Either way a step patches
  // a few of them.
  await open(page, '?s=retry-layers&v=every-layer-retries&layers=4&attempts=5&t=300&lang=en');
  await expect(page.locator('.tl-svg .col.current text')).toHaveText('300');
  expect(await page.locator('.tl-svg *').count()).toBeLessThan(1000);
  for (const wide of [false, true]) {
    if (wide) {
      await page.getByRole('button', { name: 'Wide columns' }).click();
      expect(await page.locator('.tl-svg *').count()).toBeGreaterThan(2500);
    }
    const at = Number(await page.locator('.tl-svg .col.current text').textContent());
    await page.evaluate(() => {
      window.__mutations = { added: 0, removed: 0, attributes: 0 };
      new MutationObserver((records) => {
        for (const r of records) {
          window.__mutations.added += r.addedNodes.length;
          window.__mutations.removed += r.removedNodes.length;
          if (r.type === 'attributes') window.__mutations.attributes += 1;
        }
      }).observe(document.querySelector('.tl-svg'), { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Step forward' }).click();
    await expect(page.locator('.tl-svg .col.current text')).toHaveText(String(at + 1));
    const m = await page.evaluate(() => window.__mutations);
    // The two columns whose class changes, and the previous step's marks joining the still layer.
    expect(m.removed).toBe(0);
    expect(m.attributes).toBeLessThanOrEqual(4);
    expect(m.added).toBeLessThanOrEqual(12);
  }
  expectNoConsoleErrors(problems);
});
