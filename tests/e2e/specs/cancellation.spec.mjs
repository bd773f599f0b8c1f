// Cancellation on the release build: the agent cancels a batch of three refunds after op-2 was
// committed at the provider; "cancel means undone" deletes the rows and tells the agent 1 of 3,
// "cancel, then ask once" writes a refund off when the query overtakes it; "cancel, then void by
// key" settles with the provider and reports 2 of 3 refunded, 1 not started.
import { test, expect, expectNoConsoleErrors, waitForApp, cellTexts } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
/** The rows of table `title` (by its caption), as arrays of cell texts. */
const rows = async (page, title) => {
  const t = page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: new RegExp(`^${title}$`) }) });
  return cellTexts(t);
};
const invariant = (page, region, name) => page.getByRole('region', { name: region }).locator('li', { hasText: name });

async function open(page, query, step = /^Step 0 of \d+$/) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(step);
}

async function forward(page, n, name = 'Step forward') {
  const button = page.getByRole('button', { name });
  for (let i = 0; i < n; i++) await button.click();
}

test('cancel means undone: the screen says cancelled, the ledger says refunded', async ({ page, problems }) => {
  await open(page, '?s=cancellation&v=cancel-means-undone&lang=en');
  // AbortSignal's rule, with its source, is stated up front.
  await expect(page.locator('body')).toContainText('nodejs.org/api/globals.html#class-abortsignal');
  await forward(page, 6); // start, op-1 sent, committed, answered; op-2 sent, committed
  await expect(counter(page)).toHaveText(/^Step 6 of/);
  expect(await rows(page, 'Provider ledger')).toHaveLength(2);
  await page.getByRole('button', { name: 'Agent: click Cancel' }).click();
  await expect(counter(page)).toHaveText(/^Step 7 of/);
  await forward(page, 1); // the fetch rejects with AbortError; the catch deletes
  expect((await rows(page, 'refund_operations')).map((r) => r[3])).toEqual(['SUCCEEDED', '(deleted)', '(deleted)']);
  await expect(invariant(page, 'Invariants', 'nothing written off while the provider may still refund it')).toContainText('violated at step 8');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'What the agent sees'))[0][0]).toBe('Cancelled: 1 of 3 refunded, the rest cancelled');
  expect((await rows(page, 'Provider ledger')).map((r) => r[1])).toEqual(['op-1', 'op-2']);
  await expect(invariant(page, 'Invariants', "the screen matches the provider's ledger")).toContainText(
    "The screen says 1 of 3 refunded (op-1), but the provider's ledger holds refunds for op-1 and op-2.",
  );
  expectNoConsoleErrors(problems);
});

test('cancel, then void by key: 2 of 3 refunded, 1 not started, in Chinese too', async ({ page, problems }) => {
  // A link to the mistake, mid-failure; then the fix, with the same cancel at the same point.
  await open(page, '?s=cancellation&v=cancel-means-undone&p=0000001&t=7&lang=en', /^Step 7 of/);
  await page.getByRole('radio', { name: /Cancel, then void by key/ }).click();
  await expect(page).toHaveURL(/v=cancel-then-reconcile/);
  await page.getByRole('button', { name: 'Go to start' }).click();
  await forward(page, 6);
  await page.getByRole('button', { name: 'Agent: click Cancel' }).click();
  await expect(page).toHaveURL(/p=0000001/);
  await forward(page, 1);
  expect((await rows(page, 'refund_operations'))[1][3]).toBe('CANCEL_REQUESTED (voiding)');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'What the agent sees'))[0][0]).toBe('Cancelled: 2 of 3 refunded, 1 not started');
  expect((await rows(page, 'refund_operations')).map((r) => r[3])).toEqual(['SUCCEEDED', 'SUCCEEDED', 'NOT_EXECUTED']);
  for (const name of ["the screen matches the provider's ledger", 'nothing written off while the provider may still refund it']) {
    await expect(invariant(page, 'Invariants', name)).toContainText('holds');
  }
  // Every run within two faults (a cancel anywhere, a lost answer, an overtaking request), in
  // the explorer's worker.
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.exp-results')).toContainText('157 distinct states');
  await expect(page.locator('.exp-results li', { hasText: "the screen matches the provider's ledger" })).toContainText('holds in all');
  // The same run in Chinese, injecting the cancel by its Chinese button.
  await open(page, '?s=cancellation&v=cancel-then-reconcile&lang=zh', /^第 0 步/);
  await forward(page, 6, '前进一步');
  await page.getByRole('button', { name: '客服：点击“取消”' }).click();
  await page.getByRole('button', { name: '跳到结尾' }).click();
  expect((await rows(page, '客服看到的'))[0][0]).toBe('已取消：3 笔退了 2 笔，1 笔未开始');
  await expect(invariant(page, '不变量', '屏幕上说的与支付方账本一致')).toContainText('成立');
  expectNoConsoleErrors(problems);
});

test('cancel, then ask once: the query overtakes the refund and "not found" is wrong', async ({ page, problems }) => {
  await open(page, '?s=cancellation&v=cancel-then-ask-once&p=0010010&t=7&lang=en', /^Step 7 of/);
  expect((await rows(page, 'refund_operations'))[0][3]).toBe('NOT_EXECUTED');
  await expect(invariant(page, 'Invariants', 'nothing written off while the provider may still refund it')).toContainText(
    'The row of op-1 says NOT_EXECUTED, but its request is still waiting at the provider',
  );
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'Provider ledger'))[0]).toEqual(['re_1', 'op-1', '40.00', 'succeeded']);
  expectNoConsoleErrors(problems);
});
