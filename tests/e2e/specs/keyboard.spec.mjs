// A whole scenario from the keyboard alone: pick the scenario and the variant, play to the
// violation, act as the scheduler to avoid it, explore every run and load the counterexample —
// with every Tab stop visibly focused (:focus-visible) along the way.
import { test, expect, expectNoConsoleErrors, waitForApp, SCENARIOS } from './helpers.mjs';

/** Presses Tab until the focused element's accessible name matches `re`; every stop must show focus. */
async function tabTo(page, re, max = 150) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const el = document.activeElement;
      const name = (el?.getAttribute('aria-label') || el?.labels?.[0]?.innerText || el?.innerText || '').trim();
      return { name, tag: el?.tagName ?? '', visible: el?.matches(':focus-visible') ?? false };
    });
    // Past the last control, Tab leaves the page (the body) and comes back to the first.
    if (f.tag === 'BODY') continue;
    expect(f.visible, `focus is visible on ${f.tag} "${f.name}"`).toBe(true);
    if (re.test(f.name)) return f;
  }
  throw new Error(`Tab never reached ${re}`);
}

test('a whole scenario, keyboard only, with focus always visible', async ({ page, problems }) => {
  test.setTimeout(90_000);
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  const counter = page.locator('.counter');
  const invariant = page.getByRole('region', { name: 'Invariants' });

  // The scenario picker: arrows change the selection.
  await tabTo(page, /^Scenario/);
  const refundCap = SCENARIOS.findIndex((s) => s.slug === 'refund-cap');
  for (let i = 0; i < refundCap; i++) await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue(String(refundCap));
  await expect(page).toHaveURL(/s=refund-cap/);
  // The variant radios: arrows move the choice; the focus follows it.
  await tabTo(page, /^Read, await, write/);
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/v=lost-update/);
  await page.keyboard.press('ArrowLeft');
  await expect(page).toHaveURL(/v=read-then-write/);

  // Play to the end from a button (keys step and jump everywhere but in form fields).
  await tabTo(page, /^Step forward$/);
  await page.keyboard.press('End');
  await expect(counter).toHaveText('Step 10 of 10');
  await expect(invariant).toContainText('violated at step 8');

  // Be the scheduler: from step 3, resume A before B's SELECT runs.
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText(/^Step 3 of/);
  await tabTo(page, /^Instance 1: resume A after SELECT$/);
  await page.keyboard.press('Enter');
  await expect(counter).toHaveText(/^Step 4 of/);
  await page.keyboard.press('End');
  await expect(invariant).toContainText('holds');

  // Explore every run, then load the shortest counterexample.
  await page.keyboard.press('Home');
  await tabTo(page, /^Explore every run$/);
  await page.keyboard.press('Enter');
  await expect(page.locator('.exp-results')).toContainText('violated in 36 of 42 runs');
  await tabTo(page, /^Show me/);
  await page.keyboard.press('Enter');
  // The counterexample opens where it breaks.
  await expect(counter).toHaveText(/^Step 8 of 10$/);
  await expect(page).toHaveURL(/p=00000000/);
  await expect(invariant).toContainText('violated at step 8');
  expectNoConsoleErrors(problems);
});

test('a focused table that scrolls sideways keeps the arrow keys; one that fits lets them step', async ({ page, problems }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('?s=unknown-outcome&t=5&lang=en');
  await waitForApp(page);
  const counter = page.locator('.counter');
  await expect(counter).toHaveText(/^Step 5 of/);
  // Six columns on a phone: wider than the screen.
  const wide = page.getByRole('region', { name: 'refund_operations' });
  await wide.focus();
  await expect(wide).toBeFocused();
  expect(await wide.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => wide.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
  await page.keyboard.press('End');
  await expect(counter).toHaveText(/^Step 5 of/);
  // A table that fits has nothing to scroll: the arrows step the run as everywhere else.
  await page.setViewportSize({ width: 1280, height: 800 });
  const fits = page.locator('figure.tbl').filter({ hasNot: page.locator('th:nth-child(4)') }).first();
  await fits.focus();
  expect(await fits.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText(/^Step 6 of/);
  expectNoConsoleErrors(problems);
});
