// The duplicate-charge incident (ord-1701 / pay-1701) on the release build: crash the payment
// consumer after it saved its result and before it acknowledged, see msg-1 delivered again and
// ord-1701 charged twice, then refunded under its own stable id; an inbox of message ids beaten
// by the same command re-published as msg-2 (in Chinese); the stable intent holding both.
import { test, expect, expectNoConsoleErrors, waitForApp, tableRows } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const invariant = (page, region, name) => page.getByRole('region', { name: region }).locator('li', { hasText: name });

async function open(page, query, first = /^Step 0 of \d+$/) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(first);
}

async function forward(page, n, name = 'Step forward') {
  const button = page.getByRole('button', { name });
  for (let i = 0; i < n; i++) await button.click();
}

const LEDGER = 'Provider ledger (Stripe API v1 idempotency)';
const ONCE = 'one successful charge per order';
const NET = 'the customer pays once in the end';

test('the incident: a redelivered msg-1 charges twice; reconciliation refunds ch_2 and deletes nothing', async ({ page, problems }) => {
  await open(page, '?s=duplicate-charge&v=new-charge-per-delivery&lang=en');
  await forward(page, 5); // publish, deliver, new payment number, charge, save
  await expect(counter(page)).toHaveText(/^Step 5 of/);
  expect(await tableRows(page, 'payments')).toEqual([['txn-1', 'ord-1701', 'txn-1', 'SUCCEEDED', 'ch_1']]);
  await page.getByRole('button', { name: 'Crash the consumer (saved, not acknowledged)' }).click();
  await expect(counter(page)).toHaveText(/^Step 6 of/);
  await expect(page.locator('.tables figure', { hasText: 'Consumer memory' })).toContainText('lost in the crash');
  expect((await tableRows(page, 'Broker: payment commands'))[0]).toEqual(['msg-1', 'ord-1701', 'pay-1701', '1', 'no (will be redelivered)']);
  await forward(page, 5); // restart, redeliver msg-1, txn-2, charge ch_2
  await expect(invariant(page, 'Invariants', ONCE)).toContainText('violated at step 10');
  await expect(invariant(page, 'Invariants', ONCE)).toContainText('ch_1 (txn-1), ch_2 (txn-2)');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await tableRows(page, 'Broker: payment commands'))[0].slice(3)).toEqual(['2', 'yes']);
  expect(await tableRows(page, 'payments')).toHaveLength(2);
  expect(await tableRows(page, LEDGER)).toEqual([
    ['ch_1', 'charge ord-1701', 'txn-1', '100.00'],
    ['ch_2', 'charge ord-1701', 'txn-2', '100.00'],
    ['re_1', 'refund of ch_2', 'rf-ch_2', '-100.00'],
  ]);
  expect(await tableRows(page, 'refund_operations')).toEqual([['rf-ch_2', 'ch_2', '100.00', 'SUCCEEDED']]);
  await expect(invariant(page, 'Invariants', ONCE)).toContainText('violated');
  await expect(invariant(page, 'Invariants', NET)).toContainText('holds');

  // The stable intent, same crash: the redelivery finds pay-1701 SUCCEEDED and charges nothing.
  // Switching the variant starts a fresh run: inject the same crash there.
  await page.getByRole('radio', { name: /Stable payment intent/ }).click();
  await expect(page).toHaveURL(/v=stable-intent/);
  await page.getByRole('button', { name: 'Go to start' }).click();
  await forward(page, 5);
  await page.getByRole('button', { name: 'Crash the consumer (saved, not acknowledged)' }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await tableRows(page, 'Broker: payment commands'))[0].slice(3)).toEqual(['2', 'yes']);
  expect(await tableRows(page, 'payment_intents')).toEqual([['pay-1701', 'ord-1701', 'pay-1701', 'SUCCEEDED', 'ch_1']]);
  expect(await tableRows(page, LEDGER)).toEqual([['ch_1', 'charge ord-1701', 'pay-1701', '100.00']]);
  expect(await tableRows(page, 'refund_operations')).toEqual([]);
  await expect(invariant(page, 'Invariants', ONCE)).toContainText('holds');
  await expect(invariant(page, 'Invariants', NET)).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('message-id inbox, in Chinese: msg-2 carries the same command under a new id and charges again; the intent does not', async ({ page, problems }) => {
  await open(page, '?s=duplicate-charge&v=message-id-dedup&lang=zh', /^第 0 步，共 \d+ 步$/);
  await forward(page, 1, '前进一步'); // publish msg-1
  await page.getByRole('button', { name: '中继以 msg-2 重新发布同一命令' }).click();
  await page.getByRole('button', { name: '跳到结尾' }).click();
  const msgs = await tableRows(page, '消息代理：支付命令');
  expect(msgs.map((r) => r.slice(0, 3))).toEqual([
    ['msg-1', 'ord-1701', 'pay-1701'],
    ['msg-2', 'ord-1701', 'pay-1701'],
  ]);
  expect(await tableRows(page, 'processed_messages')).toEqual([['msg-1'], ['msg-2']]);
  const ledger = await tableRows(page, '支付方流水（Stripe API v1 幂等语义）');
  expect(ledger.map((r) => r[2])).toEqual(['msg-1', 'msg-2', 'rf-ch_2']);
  await expect(invariant(page, '不变量', '每个订单只有一笔成功扣款')).toContainText('在第 10 步被违反');
  await expect(invariant(page, '不变量', '每个订单只有一笔成功扣款')).toContainText('原因：第 2 步，以 msg-2 重新发布');
  await expect(invariant(page, '不变量', '每个订单只有一笔成功扣款')).toContainText('ch_1（msg-1）、ch_2（msg-2）');
  await expect(invariant(page, '不变量', '客户最终只付一次钱')).toContainText('成立');

  // Switching the variant starts a fresh run: inject the same fault there.
  await page.getByRole('radio', { name: /稳定支付意图/ }).click();
  await expect(page).toHaveURL(/v=stable-intent/);
  await page.getByRole('button', { name: '回到开头' }).click();
  await forward(page, 1, '前进一步');
  await page.getByRole('button', { name: '中继以 msg-2 重新发布同一命令' }).click();
  await page.getByRole('button', { name: '跳到结尾' }).click();
  expect(await tableRows(page, '消息代理：支付命令')).toHaveLength(2);
  expect(await tableRows(page, '支付方流水（Stripe API v1 幂等语义）')).toEqual([['ch_1', '扣款 ord-1701', 'pay-1701', '100.00']]);
  await expect(invariant(page, '不变量', '每个订单只有一笔成功扣款')).toContainText('成立');
  expectNoConsoleErrors(problems);
});

test('a lost answer: the stable intent asks again with pay-1701 and the provider replays ch_1', async ({ page, problems }) => {
  await open(page, '?s=duplicate-charge&v=stable-intent&lang=en');
  await forward(page, 4); // publish, deliver, create pay-1701, charge
  await page.getByRole('button', { name: "Lose the provider's answer" }).click();
  await forward(page, 1); // time out, leave msg-1 unacknowledged
  expect((await tableRows(page, 'payment_intents'))[0][3]).toBe('PROCESSING');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await tableRows(page, LEDGER)).toHaveLength(1);
  expect((await tableRows(page, 'payment_intents'))[0][3]).toBe('SUCCEEDED');
  await expect(invariant(page, 'Invariants', ONCE)).toContainText('holds');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.exp-results')).toContainText('74 distinct states');
  await expect(page.locator('.exp-results li', { hasText: ONCE })).toContainText('holds in all');
  expectNoConsoleErrors(problems);
});
