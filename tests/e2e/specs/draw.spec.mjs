// "Draw the failure": what the learner watches stays put when they click, the timeline fits its
// width, what went wrong is drawn, each scenario's deciding number is a figure named with its
// numbers, and the sentences follow the state.
import { test, expect, expectNoConsoleErrors, waitForApp, SCENARIOS } from './helpers.mjs';

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
  await expect(page.getByRole('button', { name: /^(Play|播放)$/ })).toBeVisible();
}

const timelineBox = (page) => page.locator('.tl-scroll').boundingBox();

for (const [name, viewport] of [['wide', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`a fault click does not scroll the page (${name})`, async ({ page, problems }) => {
    await page.setViewportSize(viewport);
    await open(page, '?s=dual-write&v=commit-then-publish&p=00&t=2&lang=en');
    const fault = page.getByRole('button', { name: /Crash order service/ });
    await expect(fault).toBeVisible();
    // The enabled faults sit right under the timeline, in view without scrolling.
    const box = await fault.boundingBox();
    expect(box.y + box.height).toBeLessThan(viewport.height - 100);
    const before = await page.evaluate(() => window.scrollY);
    const top = (await timelineBox(page)).y;
    await fault.click();
    await expect(page.locator('.counter')).toHaveText(/^Step 3 of/);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
    expect((await timelineBox(page)).y).toBe(top);
    // Focus went back to the panel, visibly, and the keyboard can go on from there.
    const focused = await page.evaluate(() => document.activeElement?.tagName);
    expect(['BUTTON']).toContain(focused);
    expectNoConsoleErrors(problems);
  });

  test(`every step of a run fits the timeline's width (${name})`, async ({ page, problems }) => {
    await page.setViewportSize(viewport);
    // outbox-relay's default run: the longest of the short runs.
    await open(page, '?s=outbox-relay&v=no-dedup&p=00003&lang=en');
    await page.getByRole('button', { name: 'Go to end' }).click();
    const last = Number((await page.locator('.counter').textContent()).match(/of (\d+)/)[1]);
    expect(last).toBeGreaterThan(15);
    await expect(page.locator('.tl-svg .col')).toHaveCount(last + 1);
    const scroll = await page.locator('.tl-scroll').evaluate((e) => [e.scrollWidth, e.clientWidth]);
    expect(scroll[0]).toBeLessThanOrEqual(scroll[1]);
    await expect(page.locator('.tl-overview')).toHaveCount(0);
    // Wide columns scroll instead, and the switch says it is on.
    const zoom = page.getByRole('button', { name: 'Wide columns' });
    await zoom.click();
    await expect(zoom).toHaveAttribute('aria-pressed', 'true');
    const wide = await page.locator('.tl-scroll').evaluate((e) => [e.scrollWidth, e.clientWidth]);
    expect(wide[0]).toBeGreaterThan(wide[1]);
    expectNoConsoleErrors(problems);
  });
}

test('a long run shows a window with its cause and violation, and an overview strip', async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // Retry layering at its largest knobs: 5 attempts in 4 layers, 625 calls.
  await open(page, '?s=retry-layers&v=every-layer-retries&attempts=5&layers=4&t=300&lang=en');
  await expect(page.locator('.tl-overview')).toBeVisible();
  const cols = await page.locator('.tl-svg .col').count();
  expect(cols).toBeGreaterThan(15);
  expect(cols).toBeLessThan(80);
  await expect(page.locator('.tl-svg .col.current text')).toHaveText('300');
  // The violation's step and its cause stay in view however far the run has gone.
  const since = await page.locator('.inv.violated .inv-status').first().textContent();
  const k = Number(since.match(/\d+/)[0]);
  await expect(page.locator('.tl-svg .col title', { hasText: new RegExp(`^${k}: `) })).toHaveCount(1);
  await expect(page.locator('.tl-svg .gap').first()).toBeAttached();
  expectNoConsoleErrors(problems);
});

test('the violation is drawn: its column, a bracket to its cause, the event that never went out', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en');
  await expect(page.locator('.tl-svg .viol-col')).toHaveCount(1);
  await expect(page.locator('.tl-svg .viol-link')).toHaveCount(1);
  await expect(page.locator('.tl-svg .msg.ghost .msg-label')).toHaveText('e-17 never published');
  // Before the crash nothing of it is drawn.
  await page.getByRole('button', { name: 'Go to start' }).click();
  await expect(page.locator('.tl-svg .viol-col')).toHaveCount(0);
  await expect(page.locator('.msg.ghost')).toHaveCount(0);
  expectNoConsoleErrors(problems);
});

test('the legend explains the glyphs, by keyboard', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en');
  const legend = page.locator('.legend summary');
  await legend.focus();
  await page.keyboard.press('Enter');
  const list = page.locator('.legend-list');
  await expect(list).toBeVisible();
  for (const word of ['crash', 'commit', 'should have happened, never did']) {
    await expect(list).toContainText(word);
  }
  expectNoConsoleErrors(problems);
});

test('F injects the first fault and digits take the moves', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&lang=en');
  await page.keyboard.press('1');
  await page.keyboard.press('1');
  await expect(page.locator('.counter')).toHaveText(/^Step 2 of/);
  await page.keyboard.press('f');
  await expect(page.locator('.counter')).toHaveText(/^Step 3 of/);
  await expect(page.locator('.narration .step-title')).toContainText('crash order service');
  expectNoConsoleErrors(problems);
});

test('the figure is an image named with its numbers, in both languages', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en');
  const fig = page.getByRole('img', { name: /2 committed orders, 1 with their event in the broker/ });
  await expect(fig).toBeVisible();
  await expect(page.locator('.figure')).toHaveClass(/violated/);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.getByRole('img', { name: /已提交 2 个订单，其中 1 个的事件在消息代理中/ })).toBeVisible();
  expectNoConsoleErrors(problems);
});

test('violated invariants come first and their sentence follows the state', async ({ page, problems }) => {
  await open(page, '?s=retry-layers&v=every-layer-retries&t=27&lang=en');
  const first = page.locator('.inv').first();
  await expect(first).toHaveClass(/violated/);
  await expect(first.locator('.inv-why')).toContainText('First broken at step');
  await expect(first.locator('.inv-why')).toContainText('27 calls');
  // Earlier in the run the same invariant says what the state said then.
  await open(page, '?s=retry-layers&v=every-layer-retries&t=5&lang=en');
  await expect(page.locator('.inv').first().locator('.inv-why')).not.toContainText('27 calls');
  expectNoConsoleErrors(problems);
});

test('the narration leads with one sentence; More shows the rest and stays open', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&p=001&t=3&lang=en');
  const more = page.locator('.narration [data-cmd=more]');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('.story-rest')).toBeHidden();
  await more.click();
  await expect(page.locator('.story-rest')).toBeVisible();
  await page.getByRole('button', { name: 'Step back' }).click();
  await expect(page.locator('.narration [data-cmd=more]')).toHaveAttribute('aria-expanded', 'true');
  expectNoConsoleErrors(problems);
});

test('the end of a run says so and offers to start over', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&lang=en');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(page.locator('.run-over')).toContainText('The run is over.');
  await page.locator('.run-over').getByRole('button', { name: 'Start over' }).click();
  await expect(page.locator('.counter')).toHaveText(/^Step 0 of/);
  expectNoConsoleErrors(problems);
});

test('a violated invariant marks the rows it is about', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en');
  const hot = page.locator('.tbl tr.hot');
  await expect(hot).toHaveCount(1);
  await expect(hot).toContainText('17');
  expectNoConsoleErrors(problems);
});

// Every scenario's deciding number is a figure, named with its numbers, turned to the violation
// style at its failure (each scenario's first mistake, at the end of its failing path).
const FAILURES = SCENARIOS.flatMap((s) => s.variants.filter((v) => !v.fixed).slice(0, 1).map((v) => [s.slug, v, v.figure]));
test('every scenario has a figure named with its numbers that shows the failure', async ({ page, problems }) => {
  test.setTimeout(60_000);
  expect(FAILURES).toHaveLength(SCENARIOS.length);
  for (const [s, { slug: v, path: p, at }, name] of FAILURES) {
    await open(page, `?s=${s}&v=${v}&p=${p}&t=${at}&lang=en`);
    await expect(page.getByRole('img', { name }), s).toBeVisible();
    await expect(page.locator('.figure'), s).toHaveClass(/violated/);
  }
  expectNoConsoleErrors(problems);
});

test('refund cap: each request has its own lane, so the interleaving is a zigzag', async ({ page, problems }) => {
  await open(page, '?s=refund-cap&v=read-then-write&t=8&lang=en');
  await expect(page.locator('.lanes .lane-name')).toHaveText(['Request A', 'Request B', 'Database']);
  await open(page, '?s=refund-cap&v=mutex-two-instances&t=8&lang=zh');
  await expect(page.locator('.lanes .lane-name')).toHaveText(['A · 实例 1', 'B · 实例 2', '数据库']);
  expectNoConsoleErrors(problems);
});

test('a table wider than its box scrolls with its title in view; identifiers never break', async ({ page, problems }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '?s=approval&v=approve-chat-text&p=002&t=4&lang=en');
  const box = page.getByRole('region', { name: 'orders' });
  await box.scrollIntoViewIfNeeded();
  expect(await box.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
  // The table's kind (durable) stays inside the box, before and after scrolling sideways.
  const inside = () => box.evaluate((e) => {
    const b = e.getBoundingClientRect(), k = e.querySelector('.tbl-kind').getBoundingClientRect();
    return k.left >= b.left && k.right <= b.right;
  });
  expect(await inside()).toBe(true);
  await box.evaluate((e) => { e.scrollLeft = e.scrollWidth; });
  expect(await inside()).toBe(true);
  // An identifier stays on one line (one box per line its text takes; the text comes after the
  // row's marks).
  const lines = (cell) => cell.evaluate((e) => {
    const r = document.createRange();
    r.selectNodeContents(e.lastChild);
    return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size;
  });
  expect(await lines(box.getByRole('cell', { name: /ord-2042/ }))).toBe(1);
  expectNoConsoleErrors(problems);
});
