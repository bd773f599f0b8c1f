// Semaphore scope on the release build: three instances with a local semaphore of 10 each put
// 3 × 10 = 30 calls on a channel that takes 10; a shared counter row keeps it at 10 but leaks the
// slots of an instance that crashes holding them; leases come back. The local semaphore's size
// in a link (`local=20`) survives a reload. Both languages.
import { test, expect, expectNoConsoleErrors, waitForApp, cellTexts } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
/** The rows of table `title` (by its caption), as arrays of cell texts. */
const rows = async (page, title) => {
  const t = page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: new RegExp(`^${title}$`) }) });
  return cellTexts(t);
};
const metric = (page, name) =>
  page.locator('.metrics div', { has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) }).locator('dd');
const invariant = (page, region, name) => page.getByRole('region', { name: region }).locator('li', { hasText: name });

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^Step 0 of \d+$|^第 0 步/);
}

async function forward(page, n, name = 'Step forward') {
  const button = page.getByRole('button', { name });
  for (let i = 0; i < n; i++) await button.click();
}

test('a semaphore of 10 per instance: 3 × 10 = 30 calls in flight, no fault needed', async ({ page, problems }) => {
  await open(page, '?s=semaphore-scope&v=per-instance-semaphore&lang=en');
  await forward(page, 6);
  await expect(counter(page)).toHaveText(/^Step 6 of/);
  expect(await rows(page, 'Payment channel: calls in flight')).toEqual([
    ['instance-1/p1', '10'],
    ['instance-2/p1', '10'],
    ['instance-3/p1', '10'],
    ['total', '30 (limit 10: over by 20)'],
  ]);
  const sems = (await rows(page, 'Instances \\(process memory\\)')).map((r) => r[2]);
  expect(sems).toEqual(['10 of 10 permits taken', '10 of 10 permits taken', '10 of 10 permits taken']);
  await expect(invariant(page, 'Invariants', 'at most 10 calls in flight to the channel')).toContainText('violated at step 3');
  expectNoConsoleErrors(problems);
});

test('a shared counter: crash an instance holding slots, the slots leak; leases bring them back', async ({ page, problems }) => {
  await open(page, '?s=semaphore-scope&v=shared-counter&lang=en');
  await forward(page, 2); // instances 1 and 2 hold 5 each: the budget is full
  expect(await rows(page, 'channel_budget')).toEqual([['psp', '10']]);
  await page.getByRole('button', { name: 'Crash instance 1' }).click();
  await expect(counter(page)).toHaveText(/^Step 3 of/);
  expect((await rows(page, 'Instances \\(process memory\\)'))[0][2]).toContain('lost in the crash');
  await page.getByRole('button', { name: 'Go to end' }).click();
  // The work finished on the 5 slots left; 5 stay counted forever.
  expect(await rows(page, 'channel_budget')).toEqual([['psp', '5']]);
  expect((await rows(page, 'Payment channel: calls in flight')).at(-1)).toEqual(['total', '0 (limit 10)']);
  await expect(invariant(page, 'Invariants', 'no slot leaked forever')).toContainText('violated');
  await expect(invariant(page, 'Invariants', 'no slot leaked forever')).toContainText('channel_budget.in_flight is 5 but 0 calls are in flight');
  await expect(invariant(page, 'Invariants', 'at most 10 calls in flight to the channel')).toContainText('holds');

  // The same crash with leases: the dead process's rows expire and every invariant holds.
  await page.getByRole('radio', { name: /Leases per slot/ }).click();
  await open(page, '?s=semaphore-scope&v=leases&lang=en');
  await forward(page, 2);
  await page.getByRole('button', { name: 'Crash instance 1' }).click();
  const slots = await rows(page, 'channel_slots');
  expect(slots.slice(0, 5).map((r) => r[1])).toEqual(Array(5).fill('instance-1/p1'));
  expect(slots[0][2]).toBe('not renewed since the crash: runs out within 30 s');
  await page.getByRole('button', { name: 'Go to end' }).click();
  for (const name of ['at most 10 calls in flight to the channel', 'no slot leaked forever', 'the queue drains']) {
    await expect(invariant(page, 'Invariants', name)).toContainText('holds');
  }
  expectNoConsoleErrors(problems);
});

test('in Chinese: the leak, the stalled queue and the calls over the limit are named in words', async ({ page, problems }) => {
  await page.goto('?s=semaphore-scope&v=shared-counter&p=021&lang=zh');
  await waitForApp(page);
  await page.getByRole('button', { name: '跳到结尾' }).click();
  const region = page.getByRole('region', { name: '不变量' });
  await expect(region.locator('li', { hasText: '名额不会永久泄漏' })).toContainText('永远不会有人归还');
  await expect(region.locator('li', { hasText: '队列最终清空' })).toContainText('还有 20 个任务在排队');
  await page.goto('?s=semaphore-scope&v=per-instance-semaphore&t=6&lang=zh');
  await waitForApp(page);
  // At step 6 the sentence says what the state says now (30), and where it first broke (3).
  const limit = region.locator('li', { hasText: '支付通道在途调用不超过 10 个' });
  await expect(limit).toContainText('支付通道有 30 个在途调用');
  await expect(limit).toContainText('第 3 步首次被破坏');
  expectNoConsoleErrors(problems);
});

test('the local semaphore in the link by its size: local=5, then 20 from the list, kept by a reload', async ({ page, problems }) => {
  await open(page, '?s=semaphore-scope&v=per-instance-semaphore&local=5&lang=en');
  await expect(page.getByRole('alert')).toHaveCount(0);
  const local = page.getByRole('region', { name: 'The numbers' }).getByLabel('Local semaphore per instance');
  await expect(local).toHaveValue('5');
  await expect(metric(page, 'instances × local semaphore')).toHaveText('15');
  await local.selectOption({ label: '20 permits' });
  await expect(page).toHaveURL(/[?&]local=20(&|$)/);
  await expect(metric(page, 'instances × local semaphore')).toHaveText('60');
  await page.reload();
  await waitForApp(page);
  await expect(local).toHaveValue('20');
  await expect(metric(page, 'instances × local semaphore')).toHaveText('60');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(invariant(page, 'Invariants', 'at most 10 calls in flight to the channel')).toContainText('violated');
  // An index is not a size: a notice naming the sizes, and the default of 10.
  await open(page, '?s=semaphore-scope&v=per-instance-semaphore&local=7&lang=en');
  await expect(page.locator('.notice')).toContainText("'local=7' is not one of 2, 5, 10, 20; using 10.");
  await expect(local).toHaveValue('10');
  await expect(metric(page, 'instances × local semaphore')).toHaveText('30');
  expectNoConsoleErrors(problems);
});
