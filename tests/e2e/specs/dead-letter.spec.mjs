// Dead letters on the release build: retrying in place for ever leaves m-2 at the head of the
// partition (the attempts meter past its cap); bounded retries park m-2 at once and m-1 after
// three 503s, and the partition drains; a blind replay after the customer cancelled charges a
// cancelled order (in Chinese), and a replay that re-checks refuses it.
import { test, expect, expectNoConsoleErrors, waitForApp, tableRows, invariantItem } from './helpers.mjs';

const counter = (page) => page.locator('.counter');

async function open(page, query, first = /^Step 0 of \d+$/) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(first);
}

test('retrying for ever: m-2 never leaves the head; bounded retries park it and the partition drains', async ({ page, problems }) => {
  await open(page, '?s=dead-letter&v=retry-forever&lang=en');
  await page.getByRole('button', { name: /Watch it fail/ }).click();
  // It plays the failing path and stops where it breaks.
  await expect(invariantItem(page, 'the queue keeps draining')).toContainText('violated at step 7', { timeout: 15_000 });
  await expect(counter(page)).toHaveText('Step 7 of 7');
  expect((await tableRows(page, 'Partition payments-0')).map((r) => r.slice(0, 3))).toEqual([
    ['m-2', 'ord-1702', '6'],
    ['m-3', 'ord-1703', '0'],
  ]);
  await expect(page.getByRole('img', { name: /6 attempts on one message against a cap of 3/ })).toBeVisible();

  await page.getByRole('radio', { name: /Bounded retries, then a dead letter/ }).click();
  await expect(page).toHaveURL(/v=dead-letter/);
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await tableRows(page, 'Partition payments-0')).toEqual([]);
  expect((await tableRows(page, 'dead_letters')).map((r) => r.slice(0, 4))).toEqual([['m-2', 'ord-1702', 'schema v3 unreadable', '1']]);
  await expect(invariantItem(page, 'the queue keeps draining')).toContainText('holds');
  await expect(invariantItem(page, 'no message disappears without a record')).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('three 503s park m-1 after backing off with jitter; m-3 still goes through', async ({ page, problems }) => {
  await open(page, '?s=dead-letter&v=dead-letter&lang=en');
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Provider answers 503 to m-1' }).click();
  await expect(counter(page)).toHaveText(/^Step 3 of/);
  await expect(page.locator('.narration .step-title')).toContainText('m-1 parked: 503 on 3 attempts');
  expect((await tableRows(page, 'dead_letters'))[0].slice(0, 4)).toEqual(['m-1', 'ord-1701', '503 on 3 attempts', '3']);
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await tableRows(page, 'payments')).toEqual([['ord-1703', 'ch_1', 'm-3']]);
  await expect(invariantItem(page, 'the queue keeps draining')).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('a blind replay charges a cancelled order, in Chinese; the checked replay refuses it', async ({ page, problems }) => {
  await open(page, '?s=dead-letter&v=blind-replay&t=3&lang=zh', /^第 3 步，共 \d+ 步$/);
  await page.getByRole('button', { name: '客户取消 ord-1702' }).click();
  await page.getByRole('button', { name: '跳到结尾' }).click();
  expect((await tableRows(page, '支付方的扣款')).map((r) => r.slice(0, 3))).toContainEqual(['ch_3', 'ord-1702', 'm-2/r1']);
  await expect(invariantItem(page, '过期命令不会执行')).toContainText('被违反');
  await expect(page.getByRole('img', { name: /对已取消订单扣款 1 笔/ })).toBeVisible();

  await page.getByRole('radio', { name: /重放前先核对/ }).click();
  await expect(page).toHaveURL(/v=checked-replay/);
  await page.getByRole('button', { name: '回到开头' }).click();
  for (let i = 0; i < 3; i++) await page.getByRole('button', { name: '前进一步' }).click();
  await page.getByRole('button', { name: '客户取消 ord-1702' }).click();
  await page.getByRole('button', { name: '跳到结尾' }).click();
  expect((await tableRows(page, 'dead_letters（死信记录）'))[0].slice(5)).toEqual(['REFUSED: cancelled', '1']);
  expect((await tableRows(page, 'orders（订单）'))[1]).toEqual(['ord-1702', 'CANCELLED']);
  await expect(invariantItem(page, '过期命令不会执行')).toContainText('成立');
  expectNoConsoleErrors(problems);
});
