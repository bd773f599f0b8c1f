// The refund-timeout drill and checkpoint replay on the release build: inject "answer lost" and
// "worker crash", see UNKNOWN and the kept reservation, see the naive variant refund twice; two
// requests with one key; a resumed graph node that refunds again unless its call has a stable id.
import { test, expect, expectNoConsoleErrors, waitForApp, cellTexts, invariantItem } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
/** The rows of table `title` (by its caption), as arrays of cell texts. */
const rows = async (page, title) => {
  const t = page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: new RegExp(`^${title}$`) }) });
  return cellTexts(t);
};
const invariant = (page, name) =>
  page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: name });

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^Step 0 of \d+$/);
}

async function forward(page, n) {
  const button = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < n; i++) await button.click();
}

test('the drill, marked failed: the reservation is released and the customer is refunded twice', async ({ page, problems }) => {
  await open(page, '?s=unknown-outcome&v=mark-failed-new-key&lang=en');
  await forward(page, 4); // create, claim, send, the provider refunds
  await expect(counter(page)).toHaveText(/^Step 4 of/);
  await page.getByRole('button', { name: "Lose the provider's answer" }).click();
  await forward(page, 1); // the worker times out
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('FAILED');
  expect((await rows(page, 'orders'))[0][2]).toBe('0.00');
  await expect(invariant(page, 'no reservation released while the outcome is unknown')).toContainText('violated at step 6');
  await page.getByRole('button', { name: 'Go to end' }).click();
  const ledger = await rows(page, 'Provider ledger');
  expect(ledger.map((r) => r[1])).toEqual(['op-1-a1', 'op-1-a2']);
  await expect(invariant(page, 'at most one refund per operation')).toContainText('violated');
  await expect(invariant(page, 'refunded ≤ refundable')).toContainText('The provider has refunded 160.00');
  expectNoConsoleErrors(problems);
});

test('the drill, as unknown: the reservation is kept and one refund settles it', async ({ page, problems }) => {
  await open(page, '?s=unknown-outcome&v=unknown-same-key&lang=en');
  await forward(page, 4);
  await page.getByRole('button', { name: "Lose the provider's answer" }).click();
  await forward(page, 1);
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('UNKNOWN (reconciling)');
  expect((await rows(page, 'orders'))[0][2]).toBe('80.00');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'Provider ledger')).toHaveLength(1);
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('SUCCEEDED');
  for (const name of ['refunded ≤ refundable', 'at most one refund per operation', 'no reservation released while the outcome is unknown']) {
    await expect(invariant(page, name)).toContainText('holds');
  }
  // The worker crash, same lesson: sent, not saved; after the restart the outcome is UNKNOWN.
  await open(page, '?s=unknown-outcome&v=unknown-same-key&lang=en');
  await forward(page, 3);
  await page.getByRole('button', { name: 'Crash the worker (sent, not saved)' }).click();
  await expect(page.locator('.tables figure', { hasText: 'Worker memory' })).toContainText('lost in the crash');
  await forward(page, 1); // the provider executes the request it received
  await page.getByRole('button', { name: 'Restart the worker' }).click();
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('UNKNOWN (reconciling)');
  expect((await rows(page, 'orders'))[0][2]).toBe('80.00');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'Provider ledger')).toHaveLength(1);
  expectNoConsoleErrors(problems);
});

test('one key, two requests at once: check-then-insert creates two operations, the constraint one', async ({ page, problems }) => {
  await open(page, '?s=unknown-outcome&v=check-then-insert&lang=en');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'refund_operations')).toHaveLength(2);
  await expect(invariant(page, 'one operation per idempotency key')).toContainText('violated');
  await page.getByRole('radio', { name: /Unique constraint/ }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  const reqs = await rows(page, 'Client requests');
  expect(reqs.map((r) => r[3])).toEqual(['202 op-1', '200 op-1 (the existing one)']);
  await page.getByRole('radio', { name: /Same key, other amount/ }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'Client requests'))[1][3]).toBe('409 key reused with other parameters');
  expectNoConsoleErrors(problems);
});

test('a day later the same key is a new refund; looked up first, an inconclusive lookup goes to a person', async ({ page, problems }) => {
  await open(page, '?s=unknown-outcome&v=key-expired&lang=en');
  await page.getByRole('button', { name: /Watch it fail/ }).click();
  await expect(invariant(page, 'at most one refund per operation')).toContainText('violated', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'Provider ledger')).toEqual([
    ['re_1', 'op-1', '80.00', 'key pruned after 24 h'],
    ['re_2', 'op-1', '80.00', 'succeeded'],
  ]);
  await expect(page.getByRole('img', { name: /2 refunds executed for one intended; 160\.00 refunded/ })).toBeVisible();
  // The fix looks the refund up first and settles it without sending.
  await page.goto('?s=unknown-outcome&v=reconcile-first&p=000100&t=7&lang=en');
  await waitForApp(page);
  await expect(page.locator('.narration .step-title')).toContainText('look op-1 up');
  await expect(page.locator('.narration')).toContainText('GET /v1/refunds?charge=ch_1701');
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('SUCCEEDED');
  expect(await rows(page, 'Provider ledger')).toHaveLength(1);
  // In Chinese: the lookup answers 503, a person decides, and the 80.00 stays reserved.
  await page.goto('?s=unknown-outcome&v=reconcile-first&p=0001003&t=7&lang=zh');
  await waitForApp(page);
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('NEEDS_REVIEW（人工处理）');
  expect((await rows(page, 'orders'))[0][2]).toBe('80.00');
  expect((await rows(page, 'Worker 日志：每次发送的结果')).map((r) => r[2])).toEqual(['结果未知：可能仍会执行']);
  await expect(invariantItem(page, '结果未知时不释放预留')).toContainText('成立');
  expectNoConsoleErrors(problems);
});

test('a 400 is definite: FAILED and released, and the log names it', async ({ page, problems }) => {
  await open(page, '?s=unknown-outcome&v=unknown-same-key&lang=en');
  await forward(page, 3); // create, claim, send
  await page.getByRole('button', { name: 'Provider refuses (400: charge disputed)' }).click();
  await forward(page, 1); // the worker reads the 400
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('FAILED');
  expect((await rows(page, 'orders'))[0][2]).toBe('0.00');
  expect(await rows(page, 'Worker log: what each send ended in')).toEqual([['#1', 'op-1', 'definitely refused (400)']]);
  await expect(invariant(page, 'no reservation released while the outcome is unknown')).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('checkpoint replay: the resumed node refunds again, unless its call has a stable id', async ({ page, problems }) => {
  await open(page, '?s=checkpoint-replay&v=rerun-node&lang=en');
  await forward(page, 3); // plan, its checkpoint, the refund tool call
  await page.getByRole('button', { name: 'Crash the process' }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'Refund service ledger')).toHaveLength(2);
  expect(await rows(page, 'Checkpoints of thread t-42')).toHaveLength(3);
  await expect(invariant(page, 'refund executed at most once')).toContainText('violated');
  await page.getByRole('radio', { name: /Stable operation id/ }).click();
  await expect(page).toHaveURL(/v=operation-id/);
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'Refund service ledger')).toEqual([['re_1', '#1', 'op-ord-1701-r1', '80.00']]);
  await expect(invariant(page, 'refund executed at most once')).toContainText('holds');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.exp-results')).toContainText('90 distinct states');
  await expect(page.locator('.exp-results li', { hasText: 'refund executed at most once' })).toContainText('holds in all');
  expectNoConsoleErrors(problems);
});
