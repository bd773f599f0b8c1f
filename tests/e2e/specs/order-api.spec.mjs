// The order API on the release build: waiting for the order inside the request answers 504 at
// 3 s and the client's retry makes a second order (the answer-time meter past 300 ms); a lost
// 202 without a request key makes a second order; with req-1701 the retry gets the same order,
// and a rejection after the 202 reaches the client at the status URL (in Chinese).
import { test, expect, expectNoConsoleErrors, waitForApp, tableRows, invariantItem } from './helpers.mjs';

const counter = (page) => page.locator('.counter');

async function open(page, query, first = /^Step 0 of \d+$/) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(first);
}

test('waiting in the request: 504 at 3 s, and the retry is a second order', async ({ page, problems }) => {
  await open(page, '?s=order-api&v=sync-wait&lang=en');
  await page.getByRole('button', { name: /Watch it fail/ }).click();
  await expect(invariantItem(page, 'accepted within 300 ms')).toContainText('violated at step 2', { timeout: 15_000 });
  await expect(page.getByRole('img', { name: /the slowest answer took 3,000 ms, against a target of 300 ms/ })).toBeVisible();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await tableRows(page, 'orders')).map((r) => r[0])).toEqual(['ord-1701', 'ord-1702']);
  await expect(invariantItem(page, 'one order per request')).toContainText('violated');
  await expect(invariantItem(page, 'the client learns the outcome')).toContainText('violated');
  expectNoConsoleErrors(problems);
});

test('a lost 202: without a key the retry is a new order; with req-1701 it is the same one', async ({ page, problems }) => {
  await open(page, '?s=order-api&v=no-request-key&lang=en');
  await page.getByRole('button', { name: 'API handles POST #1; its answer is lost' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click(); // the client retries
  await page.getByRole('button', { name: 'Step forward' }).click(); // the API handles POST #2
  await expect(counter(page)).toHaveText(/^Step 3 of/);
  await expect(page.getByRole('img', { name: /2 orders created for the one the client meant/ })).toBeVisible();
  await expect(invariantItem(page, 'one order per request')).toContainText('violated at step 3');

  await page.getByRole('radio', { name: /Accept by request key/ }).click();
  await expect(page).toHaveURL(/v=accept-202/);
  await page.getByRole('button', { name: 'Go to start' }).click();
  await page.getByRole('button', { name: 'API handles POST #1; its answer is lost' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await expect(page.locator('.narration .step-title')).toContainText('same key: 202 ord-1701 again');
  expect(await tableRows(page, 'orders')).toEqual([['ord-1701', 'req-1701', 'cart-A', 'PROCESSING']]);
  await expect(invariantItem(page, 'one order per request')).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('accepted is not done, in Chinese: the order is rejected after its 202, and the client reads it', async ({ page, problems }) => {
  await open(page, '?s=order-api&v=accept-202&t=2&lang=zh', /^第 2 步，共 \d+ 步$/);
  await page.getByRole('button', { name: '消费者拒绝订单：缺货' }).click();
  await page.getByRole('button', { name: '跳到结尾' }).click();
  expect((await tableRows(page, 'orders（订单）'))[0]).toEqual(['ord-1701', 'req-1701', 'cart-A', 'REJECTED']);
  const posts = await tableRows(page, '客户端的 POST /orders');
  expect(posts[0][3]).toBe('202 ord-1701 · 40 ms');
  expect(posts[1][3]).toBe('REJECTED');
  await expect(invariantItem(page, '客户端得知结果')).toContainText('成立');
  expectNoConsoleErrors(problems);
});
