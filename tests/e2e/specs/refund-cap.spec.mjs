// The refund-cap scenario on the release build: the seed's schedule reserves 160 against a cap
// of 100; the conditional UPDATE reserves 80 and turns the loser away; acting as the scheduler
// changes the interleaving and the verdict follows; the explorer counts the bad schedules.
import { test, expect, expectNoConsoleErrors, waitForApp, cellTexts } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const invariant = (page) =>
  page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: 'refunds within the cap' });
/** The rows of table `title` (by its caption), as arrays of cell texts. */
const rows = async (page, title) => {
  const t = page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: new RegExp(`^${title}$`) }) });
  return cellTexts(t);
};

async function open(page, variant) {
  await page.goto(`?s=refund-cap&v=${variant}&lang=en`);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^Step 0 of \d+$/);
}

test('read-then-write: autoplay reserves 160 against a cap of 100', async ({ page, problems }) => {
  await open(page, 'read-then-write');
  // The program the requests run is on the page, each request's line marked in words.
  const program = page.getByRole('region', { name: /The code that runs/ });
  await expect(program).toContainText("const remaining = rows[0].cap - rows[0].refunded - rows[0].reserved;");
  await expect(program.locator('.cursors')).toContainText('A · line 2 · handler queued');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('4×');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(counter(page)).toHaveText('Step 10 of 10', { timeout: 20_000 });
  const refunds = await rows(page, 'refunds');
  expect(refunds[0].slice(0, 4)).toEqual(['1', '100', '0', '160']);
  await expect(invariant(page)).toContainText('violated at step 8');
  await expect(invariant(page)).toContainText('reserved 160 + refunded 0 = 160 exceeds the cap of 100');
  const requests = await rows(page, 'Refund requests');
  expect(requests.map((r) => [r[0], r[3], r[4]])).toEqual([
    ['A', '100', "returned 'reserved'"],
    ['B', '100', "returned 'reserved'"],
  ]);
  await expect(program.locator('.cursors')).toContainText("A · line 9 · returned 'reserved'");
  expectNoConsoleErrors(problems);
});

test('conditional-update: 80 reserved, the loser is told "insufficient remaining"', async ({ page, problems }) => {
  await open(page, 'read-then-write');
  await page.getByRole('radio', { name: /Conditional UPDATE/ }).click();
  await expect(page).toHaveURL(/v=conditional-update/);
  await page.getByRole('button', { name: 'Go to end' }).click();
  const refunds = await rows(page, 'refunds');
  expect(refunds[0][3]).toBe('80');
  const requests = await rows(page, 'Refund requests');
  expect(requests.map((r) => r[4])).toEqual(["returned 'reserved'", "threw 'insufficient remaining'"]);
  await expect(invariant(page)).toContainText('holds');
  const log = await rows(page, 'Statements executed');
  expect(log.map((r) => r.slice(1))).toEqual([
    ['A', 'conditional UPDATE', 'UPDATE 1'],
    ['B', 'conditional UPDATE', 'UPDATE 0'],
  ]);
  expectNoConsoleErrors(problems);
});

test('you are the scheduler: resume A before B reads, and the cap holds', async ({ page, problems }) => {
  await open(page, 'read-then-write');
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < 3; i++) await forward.click();
  await expect(counter(page)).toHaveText(/^Step 3 of \d+$/);
  // B has sent its SELECT; A's answer is ready. Run A first instead of answering B.
  const moves = page.getByRole('group', { name: 'You are the scheduler' });
  await expect(moves.getByRole('button', { name: /Database: execute B's SELECT/ })).toBeVisible();
  await moves.getByRole('button', { name: 'Instance 1: resume A after SELECT' }).click();
  await expect(counter(page)).toHaveText(/^Step 4 of \d+$/);
  expect(page.url()).toMatch(/p=\d*1/);
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'refunds'))[0][3]).toBe('80');
  await expect(invariant(page)).toContainText('holds');
  const requests = await rows(page, 'Refund requests');
  expect(requests.map((r) => [r[3], r[4]])).toEqual([
    ['100', "returned 'reserved'"],
    ['20', "threw 'insufficient remaining'"],
  ]);

  // Back to the scripted schedule: the verdict follows the interleaving.
  await page.getByRole('button', { name: 'Go to start' }).click();
  for (let i = 0; i < 3; i++) await forward.click();
  await moves.getByRole('button', { name: /Database: execute B's SELECT/ }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'refunds'))[0][3]).toBe('160');
  await expect(invariant(page)).toContainText('violated');
  expectNoConsoleErrors(problems);
});

test('the explorer counts the schedules that break the cap, and the fix holds in all', async ({ page, problems }) => {
  await open(page, 'mutex-two-instances');
  await expect(page.getByRole('combobox', { name: 'Faults per run' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Explore every run' }).click();
  const results = page.locator('.exp-results');
  // The native suite's pinned counts (tests/it/refund_cap.rs).
  await expect(results).toContainText('68 distinct states · 232 runs');
  await expect(results.locator('li', { hasText: 'refunds within the cap' })).toContainText('violated in 200 of 232 runs');
  await page.getByRole('button', { name: 'Prove the fix: Conditional UPDATE' }).click();
  await expect(results.locator('table.exp-compare')).toContainText('holds in all 20 runs');
  expectNoConsoleErrors(problems);
});

test('knobs: a cap of 200 holds both refunds, survives a reload, and the explorer uses it', async ({ page, problems }) => {
  await open(page, 'mutex-two-instances');
  const cap = page.getByRole('spinbutton', { name: 'Refundable cap' });
  await expect(cap).toHaveValue('100');
  await cap.fill('200');
  await cap.press('Enter');
  await expect(page).toHaveURL(/cap=200/);
  await expect(page.getByRole('spinbutton', { name: 'Refundable cap' })).toBeFocused();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'refunds'))[0].slice(1, 4)).toEqual(['200', '0', '160']);
  await expect(invariant(page)).toContainText('holds');
  await page.reload();
  await waitForApp(page);
  await expect(page.getByRole('spinbutton', { name: 'Refundable cap' })).toHaveValue('200');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.exp-results li', { hasText: 'refunds within the cap' })).toContainText('holds in all');
  await page.getByRole('button', { name: 'Back to the defaults' }).click();
  await expect(page.getByRole('spinbutton', { name: 'Refundable cap' })).toHaveValue('100');
  expect(page.url()).not.toContain('cap=');
  expectNoConsoleErrors(problems);
});

test('a bad knob in the link gets a notice and the default', async ({ page, problems }) => {
  await page.goto('?s=refund-cap&v=read-then-write&amount-a=lots&lang=en');
  await waitForApp(page);
  await expect(page.locator('.notice')).toContainText("'amount-a=lots' is not a whole number from 0 to 1000; using 80");
  await expect(page.getByRole('spinbutton', { name: "A's refund" })).toHaveValue('80');
  expectNoConsoleErrors(problems);
});
