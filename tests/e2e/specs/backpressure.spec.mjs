// Backpressure on the release build: the seed's 9,600 queued at 60 s and the drain at 120 s,
// on the counters and the curves; admission control refusing with 503 and keeping the wait
// within the promise; consumers that outrun a 120/s channel; knobs that change the arithmetic.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const metric = (page, name) => page.locator('.metrics div', { has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) }).locator('dd');
const invariant = (page, name) => page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: name });

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^(Step \d+ of \d+|第 \d+ 步，共 \d+ 步)$/);
}

test('the unbounded queue: 9,600 queued at 60 s, drained at 120 s, the promise broken at 80 s', async ({ page, problems }) => {
  await open(page, '?s=backpressure&v=unbounded-queue&lang=en');
  await expect(counter(page)).toHaveText('Step 0 of 24');
  await open(page, '?s=backpressure&v=unbounded-queue&lang=en&t=12');
  await expect(counter(page)).toHaveText('Step 12 of 24');
  await expect(metric(page, 'Queued')).toHaveText('9600');
  await expect(metric(page, 'Expected wait \\(s\\)')).toHaveText('40');
  await expect(page.locator('figure.plot').first()).toContainText('At 60 s, 9,600 orders are queued');
  await expect(page.locator('.narration, [aria-live]').first()).toBeAttached();
  await expect(invariant(page, 'Orders wait within the promise')).toContainText('holds');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(metric(page, 'Time \\(s\\)')).toHaveText('120');
  await expect(metric(page, 'Queued')).toHaveText('0');
  await expect(invariant(page, 'Orders wait within the promise')).toContainText('violated at step 16');
  // The sentence follows the state, and still says where it first broke.
  await expect(invariant(page, 'Orders wait within the promise')).toContainText('First broken at step 16.');
  await open(page, '?s=backpressure&v=unbounded-queue&lang=en&t=16');
  await expect(invariant(page, 'Orders wait within the promise')).toContainText('waited 32 s');
  // The curves are drawn, with a line per series and the promise across them.
  await expect(page.locator('figure.plot polyline')).toHaveCount(3);
  await expect(page.locator('figure.plot line.limit').first()).toBeAttached();
  expectNoConsoleErrors(problems);
});

test('admission control refuses with 503 and keeps the wait within the promise, even when a host dies', async ({ page, problems }) => {
  await open(page, '?s=backpressure&v=admission-control&lang=en');
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Lose a consumer host (¼ of capacity)' }).click();
  await expect(page.getByRole('region', { name: 'Capacity', exact: true })).toContainText('36 busy slots × 1 / 0.2 s');
  await page.getByRole('button', { name: 'Go to end' }).click();
  for (const name of ['Orders wait within the promise', "Calls within the payment channel's limit"]) {
    await expect(invariant(page, name)).toContainText('holds');
  }
  expect(Number(await metric(page, 'Refused \\(503\\)').innerText())).toBeGreaterThan(0);
  await expect(page.locator('.tables figure', { hasText: 'Flow in the last 5 s' })).toContainText('refused (503, Retry-After)');
  expectNoConsoleErrors(problems);
});

test('consumers that try 400/s against a 120/s channel: 429s, no more throughput', async ({ page, problems }) => {
  await open(page, '?s=backpressure&v=throttled-channel&lang=en&t=12');
  await expect(metric(page, 'Queued')).toHaveText('16800');
  await expect(metric(page, 'Throttled \\(429\\)')).toHaveText('16800');
  await expect(invariant(page, "Calls within the payment channel's limit")).toContainText('violated at step 1');
  await page.getByRole('radio', { name: /Paced to the channel/ }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(invariant(page, "Calls within the payment channel's limit")).toContainText('holds');
  await expect(metric(page, 'Throttled \\(429\\)')).toHaveText('0');
  expectNoConsoleErrors(problems);
});

test('knobs change the arithmetic, and the link keeps them; Chinese narration', async ({ page, problems }) => {
  // 500/s for 30 s against 40 slots at 250 ms (160/s): 10,200 queued, drained 170 s later.
  await open(page, '?s=backpressure&v=unbounded-queue&lang=zh&in-peak=500&peak=30&in-after=100&slots=40&service=250');
  await open(page, '?s=backpressure&v=unbounded-queue&lang=zh&in-peak=500&peak=30&in-after=100&slots=40&service=250&t=6');
  await expect(counter(page)).toHaveText('第 6 步，共 40 步');
  await expect(metric(page, '排队')).toHaveText('10200');
  await expect(page.locator('figure.plot').first()).toContainText('第 30 秒，队列中有 10,200 条订单');
  await page.reload();
  await expect(metric(page, '排队')).toHaveText('10200');
  expectNoConsoleErrors(problems);
});
