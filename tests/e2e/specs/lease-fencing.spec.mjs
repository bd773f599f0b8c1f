// Leases and fencing on the release build: worker A pauses past its lease, B takes r-7 over and
// finishes it, A wakes up. Unfenced, A refunds again and writes over B's outcome; fenced, A's
// write gets UPDATE 0 but its refund already went out (in Chinese); with the operation's key the
// provider replays the first refund.
import { test, expect, expectNoConsoleErrors, waitForApp, tableRows, invariantItem } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Takes the moves named, in order, from the current step (a button's name ends with its key). */
async function take(page, names) {
  for (const name of names) await page.getByRole('button', { name: new RegExp(`^${escape(name)}`) }).click();
}

const STALE_EN = ['Pause worker A (GC)', '30 s pass: the lease expires', 'Worker B claims r-7', 'Worker B sends the refund',
  'Worker B writes COMPLETED', 'Worker A wakes up', 'Worker A sends the refund', 'Worker A writes COMPLETED'];

test('unfenced, the stale worker refunds again and overwrites; with the key, one refund', async ({ page, problems }) => {
  await page.goto('?s=lease-fencing&v=no-fencing&t=1&lang=en');
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^Step 1 of/);
  await take(page, STALE_EN);
  await expect(counter(page)).toHaveText(/^Step 9 of 9/);
  expect(await tableRows(page, 'runs')).toEqual([['r-7', 'COMPLETED', 'B', '2', 'A']]);
  expect((await tableRows(page, "Provider's refunds")).map((r) => r[2])).toEqual(['B', 'A']);
  await expect(invariantItem(page, 'a stale worker never overwrites')).toContainText('violated at step 9');
  await expect(page.getByRole('img', { name: /2 refunds executed for the one run r-7 meant/ })).toBeVisible();

  await page.getByRole('radio', { name: /Fenced, and an idempotency key/ }).click();
  await expect(page).toHaveURL(/v=fenced-with-key/);
  await page.getByRole('button', { name: 'Go to start' }).click();
  await take(page, ['Worker A claims r-7', ...STALE_EN]);
  expect(await tableRows(page, "Provider's refunds")).toEqual([['re_1', 'r-7', 'B', 'op-r7']]);
  await expect(page.locator('.narration .step-title')).toContainText("A's write refused: UPDATE 0");
  await expect(invariantItem(page, 'one refund per run')).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('fenced, in Chinese: the write is refused, and the refund went out anyway', async ({ page, problems }) => {
  await page.goto('?s=lease-fencing&v=fenced&lang=zh');
  await waitForApp(page);
  await page.getByRole('button', { name: /看它如何出错/ }).click();
  await expect(invariantItem(page, '每个运行只退一次款')).toContainText('被违反', { timeout: 15_000 });
  await page.getByRole('button', { name: '跳到结尾' }).click();
  expect(await tableRows(page, 'runs（运行）')).toEqual([['r-7', 'COMPLETED', 'B', '2', 'B']]);
  await expect(invariantItem(page, '过期的 worker 不会覆盖状态')).toContainText('成立');
  expectNoConsoleErrors(problems);
});
