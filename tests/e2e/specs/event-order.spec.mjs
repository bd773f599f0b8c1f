// Events out of order on the release build: a version guard accepts v4 over a gap and then
// drops the v2 and v3 that fill it, so 100.00 paid is never recorded (the books figure against
// the provider's); the state machine looks the payment up on the same gap; last write wins
// counts a duplicate twice (in Chinese).
import { test, expect, expectNoConsoleErrors, waitForApp, tableRows, invariantItem } from './helpers.mjs';

const counter = (page) => page.locator('.counter');

test('a version guard accepts a gap and loses the payment; the state machine looks it up', async ({ page, problems }) => {
  await page.goto('?s=event-order&v=version-guard&lang=en');
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^Step 0 of/);
  await page.getByRole('button', { name: 'Deliver charge.refunded (v4)' }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await tableRows(page, 'payments')).toEqual([['pay-1701', 'REFUNDED', '4', '0.00', '80.00']]);
  expect((await tableRows(page, 'Webhook deliveries')).map((r) => r[3])).toEqual(['applied', 'dropped', 'dropped']);
  await expect(invariantItem(page, 'the books match the provider')).toContainText('violated');
  await expect(page.getByRole('img', { name: /we record 0\.00 paid and 80\.00 refunded/ })).toBeVisible();

  await page.getByRole('radio', { name: /A state machine/ }).click();
  await expect(page).toHaveURL(/v=state-machine/);
  await page.getByRole('button', { name: 'Go to start' }).click();
  await page.getByRole('button', { name: 'Deliver charge.refunded (v4)' }).click();
  await expect(page.locator('.narration .step-title')).toContainText('gap at v4: looked up');
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await tableRows(page, 'payments')).toEqual([['pay-1701', 'REFUNDED', '4', '100.00', '80.00']]);
  await expect(invariantItem(page, 'the books match the provider')).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('last write wins, in Chinese: a duplicate counts 100.00 twice', async ({ page, problems }) => {
  await page.goto('?s=event-order&v=last-write-wins&lang=zh');
  await waitForApp(page);
  await page.getByRole('button', { name: /看它如何出错/ }).click();
  await expect(invariantItem(page, '每个效果只记一次')).toContainText('被违反', { timeout: 15_000 });
  expect((await tableRows(page, 'payments（支付）'))[0][3]).toBe('200.00');
  expectNoConsoleErrors(problems);
});
