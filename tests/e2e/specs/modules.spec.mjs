// Scenarios and the page's optional parts load on demand (tests/e2e/tools/split.mjs): a link
// fetches the page and the shown scenario's modules only, and a module that does not arrive
// leaves a notice with "Try again", never a blank stage, and changes nothing.
import { test, expect, waitForApp } from './helpers.mjs';

const module = (name) => new RegExp(`/split_${name}-[0-9a-f]{16}\\.wasm$`);

// The explorer's panel itself, not its stand-in (`ExplorerStandIn` stands in for it until it is here).
const panel = (page) => expect(page.locator('.explorer .exp-results')).toBeAttached();

test('a link fetches its own scenario and no other, then the explorer\'s panel; an embed not even that', async ({ page }) => {
  const fetched = [];
  page.on('request', (r) => {
    const m = /\/split_(\w+)-[0-9a-f]{16}\.wasm$/.exec(r.url());
    if (m) fetched.push(m[1]);
  });
  await page.goto('?s=refund-cap&lang=en');
  await waitForApp(page);
  await expect(page).toHaveTitle(/Refund cap/);
  // On a desktop screen the panel is within a screen's height of the viewport: it is fetched.
  await panel(page);
  expect(fetched).toEqual(['refund_cap', 'part_explorer']);
  fetched.length = 0;
  await page.goto('?s=dual-write&embed=1&lang=en');
  await waitForApp(page);
  expect(fetched).toEqual(['dual_write']);
});

test('a link whose module fails: a notice and Try again, which then opens it', async ({ page }) => {
  let fail = true;
  await page.route(module('refund_cap'), (route) => (fail ? route.abort() : route.continue()));
  await page.goto('?s=refund-cap&lang=en');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('could not be loaded');
  fail = false;
  await alert.getByRole('link', { name: /Try again/ }).click();
  await waitForApp(page);
  await expect(page).toHaveTitle(/Refund cap/);
  await expect(page.locator('.counter')).toHaveText(/Step 0 of \d+/);
});

// The scenario's own module, and the pack of the chunks it shares with other scenarios.
const failing = [['module', module('semaphore_scope')], ['pack of chunks', /\/chunks-semaphore_scope-[0-9a-f]{16}\.bin$/]];
for (const [what, file] of failing) {
  test(`switching to a scenario whose ${what} fails changes nothing; Try again switches`, async ({ page }) => {
    let fail = true;
    await page.route(file, (route) => (fail ? route.abort() : route.continue()));
    await page.goto('?s=dual-write&lang=en');
    await waitForApp(page);
    const picker = page.getByRole('combobox', { name: 'Scenario' });
    const value = await picker.locator('option', { hasText: 'Semaphore scope' }).getAttribute('value');
    await picker.selectOption(value);
    const notice = page.locator('.notice');
    await expect(notice).toContainText('could not be loaded');
    await expect(page).toHaveTitle(/Dual write/);
    await expect(picker.locator('option:checked')).toHaveText(/Dual write/);
    fail = false;
    await notice.getByRole('button', { name: 'Try again' }).click();
    await expect(page).toHaveTitle(/Semaphore scope/);
    await expect(page.locator('.notice')).toHaveCount(0);
  });
}

test('the export formats arrive on first use; a failed fetch says so, and the next click works', async ({ page }) => {
  const fetched = [];
  page.on('request', (r) => {
    const m = /\/split_(\w+)-[0-9a-f]{16}\.wasm$/.exec(r.url());
    if (m) fetched.push(m[1]);
  });
  let fail = true;
  await page.route(module('part_export'), (route) => (fail ? route.abort() : route.continue()));
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  await panel(page);
  expect(fetched).toEqual(['dual_write', 'part_explorer']);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export this run' });
  const markdown = dialog.getByRole('button', { name: 'State tables as Markdown' });
  await markdown.click();
  await expect(page.locator('.notice')).toContainText('The export could not be loaded');
  expect(fetched).toEqual(['dual_write', 'part_explorer', 'part_export_dialog', 'part_export']);
  fail = false;
  const [download] = await Promise.all([page.waitForEvent('download'), markdown.click()]);
  expect(download.suggestedFilename()).toBe('dual-write-commit-then-publish-step0.md');
});

test('an optional part arrives on first use; a failed fetch says so, and Try again finishes what was asked', async ({ page }) => {
  const fetched = [];
  page.on('request', (r) => {
    const m = /\/(split_\w+|chunks[\w-]*)-[0-9a-f]{16}\.(wasm|bin)$/.exec(r.url());
    if (m) fetched.push(m[1]);
  });
  let fail = true;
  await page.route(module('part_quiz'), (route) => (fail ? route.abort() : route.continue()));
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  await panel(page);
  expect(fetched.filter((f) => f.startsWith('split_'))).toEqual(['split_dual_write', 'split_part_explorer']);
  await page.getByRole('button', { name: 'Quiz', exact: true }).click();
  const notice = page.locator('.notice');
  await expect(notice).toContainText('The quiz could not be loaded');
  await expect(page.getByRole('dialog', { name: 'Interview questions' })).toHaveCount(0);
  await expect(page.locator('.counter')).toHaveText(/Step 0 of \d+/);
  fail = false;
  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('dialog', { name: 'Interview questions' })).toBeVisible();
  await expect(page.locator('.notice')).toHaveCount(0);
  // Each loader's chunks come in its own pack: the scenario's, the explorer's, the quiz's.
  expect(fetched.filter((f) => f.startsWith('chunks')).sort()).toEqual(['chunks-dual_write', 'chunks-explorer', 'chunks-quiz']);
});

test('a comparison in the link fetches its part before drawing it; the home page its own', async ({ page }) => {
  const fetched = [];
  const packs = [];
  page.on('request', (r) => {
    const m = /\/split_(\w+)-[0-9a-f]{16}\.wasm$/.exec(r.url());
    if (m) fetched.push(m[1]);
    const p = /\/(chunks[\w-]*)-[0-9a-f]{16}\.bin$/.exec(r.url());
    if (p) packs.push(p[1]);
  });
  await page.goto('?s=outbox-relay&v=no-dedup&cmp=inbox&lang=en');
  await waitForApp(page);
  await expect(page.locator('.compare')).toBeVisible();
  // (The explorer's panel is fetched or not by where the comparison leaves it: not checked here.)
  expect(fetched.filter((f) => f !== 'part_explorer').sort()).toEqual(['outbox_relay', 'part_compare']);
  fetched.length = 0;
  packs.length = 0;
  await page.goto('?home=1&lang=en');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(fetched[0]).toBe('part_home');
  // The cards' scenarios take their chunks from one pack of them all, not one pack each.
  await expect.poll(() => fetched.length).toBeGreaterThan(2);
  await expect.poll(() => [...new Set(packs)].sort()).toEqual(['chunks', 'chunks-home']);
});

test('a link fetches its scenario beside the page\'s own wasm, not after it, and once', async ({ page }) => {
  const events = [];
  // A slow page wasm: the scenario's module must be on its way before it arrives.
  await page.route(/\/effectively-once-[0-9a-f]{16}_bg\.wasm$/, async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  page.on('request', (r) => {
    if (/\/split_refund_cap-[0-9a-f]{16}\.wasm$/.test(r.url())) events.push('module requested');
    if (/\/chunks-refund_cap-[0-9a-f]{16}\.bin$/.test(r.url())) events.push('pack requested');
  });
  page.on('requestfinished', (r) => {
    if (/\/effectively-once-[0-9a-f]{16}_bg\.wasm$/.test(r.url())) events.push('page wasm arrived');
  });
  await page.goto('?s=refund-cap&lang=en');
  await waitForApp(page);
  await expect(page.locator('.counter')).toHaveText(/Step 0 of \d+/);
  expect(events).toEqual(['module requested', 'pack requested', 'page wasm arrived']);
});

test('a comparison whose part fails: the one player stays, and Try again draws the comparison', async ({ page }) => {
  let fail = true;
  await page.route(module('part_compare'), (route) => (fail ? route.abort() : route.continue()));
  await page.goto('?s=outbox-relay&v=no-dedup&cmp=inbox&lang=en');
  await waitForApp(page);
  const notice = page.locator('.notice');
  await expect(notice).toContainText('The comparison could not be loaded');
  await expect(page.locator('.compare')).toHaveCount(0);
  await expect(page.locator('.counter')).toHaveText(/Step 0 of \d+/);
  fail = false;
  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('.compare')).toBeVisible();
  await expect(page.locator('.notice')).toHaveCount(0);
});

test('on a phone the explorer\'s panel waits until it is near; its stand-in explores at once and hands focus over', async ({ page }) => {
  const fetched = [];
  page.on('request', (r) => {
    const m = /\/split_(\w+)-[0-9a-f]{16}\.wasm$/.exec(r.url());
    if (m) fetched.push(m[1]);
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('?s=outbox-relay&lang=en');
  await waitForApp(page);
  await expect(page.locator('.counter')).toHaveText(/Step 0 of \d+/);
  expect(fetched).toEqual(['outbox_relay']);
  // Tabbing to the stand-in's button brings it near: the panel arrives and takes the focus.
  const explore = page.getByRole('button', { name: 'Explore every run' });
  await explore.focus();
  await panel(page);
  await expect(page.locator('.explorer .exp-bar button').first()).toBeFocused();
  await expect(page.getByRole('button', { name: 'Explore every run' })).toHaveCount(1);
  expect(fetched).toEqual(['outbox_relay', 'part_explorer']);

  // Pressed before the panel is here (its module held back): it explores, then the panel shows
  // the results and has the focus.
  fetched.length = 0;
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(module('part_explorer'), async (route) => { await held; await route.continue(); });
  await page.goto('?s=dual-write&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.explorer .exp-results')).toHaveCount(0);
  release();
  await expect(page.locator('.exp-totals')).toContainText(/states/);
  await expect(page.locator('.explorer .exp-bar button').first()).toBeFocused();
  expect(fetched).toEqual(['dual_write', 'part_explorer']);
});

// Pressed just as the panel arrives: the stand-in's button is swapped between press and
// release, so the browser fires no click. The release stands for it where the button was, and
// still cancels it anywhere else.
for (const [where, explores] of [['where the button was', true], ['elsewhere', false]]) {
  test(`the stand-in pressed as the panel arrives, released ${where}: ${explores ? 'it explores' : 'nothing runs'}`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route(module('part_explorer'), async (route) => { await held; await route.continue(); });
    await page.goto('?s=dual-write&lang=en');
    await waitForApp(page);
    const button = page.getByRole('button', { name: 'Explore every run' });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    release();
    await panel(page);
    if (!explores) await page.mouse.move(box.x + box.width / 2, box.y - 200);
    await page.mouse.up();
    if (explores) {
      await expect(page.locator('.exp-totals')).toContainText(/states/);
    } else {
      // Exploring shows its totals within a few hundred milliseconds: none came.
      await page.waitForTimeout(800);
      await expect(page.locator('.exp-totals')).toHaveCount(0);
    }
  });
}
