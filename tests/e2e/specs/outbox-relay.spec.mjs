// The outbox-relay scenario on the release build: a relay crash after publishing causes a second
// delivery; the naive consumer reserves twice, the inbox once; the state survives a reload.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const stepIs = async (page, n) => expect(counter(page)).toHaveText(new RegExp(`^Step ${n} of \\d+$`));
const invariant = (page, name) =>
  page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: name });
/** The cells of the first row of table `title` (by its caption). */
const firstRow = (page, title) =>
  page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: new RegExp(`^${title}$`) }) })
    .locator('tbody tr').first();
const metric = (page, name) => page.locator('.metrics div', { hasText: name }).locator('dd');

async function crashRelayAfterPublish(page, variant) {
  await page.goto(`?s=outbox-relay&v=${variant}&lang=en`);
  await waitForApp(page);
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue(/./);
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < 4; i++) await forward.click();
  await stepIs(page, 4);
  await expect(page.locator('.narration')).toContainText('publishes e-1');
  await page.getByRole('button', { name: 'Crash relay after publish' }).click();
  await stepIs(page, 5);
  await expect(page.locator('.narration')).toContainText('before marking it sent');
  await expect(page.locator('.lanes')).toContainText('Relay');
}

/** Steps forward until the narration mentions `text`; returns the step reached. */
async function playUntil(page, text, max = 30) {
  const forward = page.getByRole('button', { name: 'Step forward' });
  // The whole narration, not only its first sentence (More stays open from step to step).
  const more = page.locator('.narration [data-cmd=more][aria-expanded=false]');
  if (await more.count()) await more.click();
  for (let i = 0; i < max; i++) {
    if ((await page.locator('.narration').innerText()).includes(text)) break;
    await forward.click();
  }
  await expect(page.locator('.narration')).toContainText(text);
  return Number((await counter(page).innerText()).match(/Step (\d+)/)[1]);
}

test('no-dedup: a relay crash after publish reserves the stock twice', async ({ page, problems }) => {
  await crashRelayAfterPublish(page, 'no-dedup');
  await playUntil(page, 'The inventory service receives e-1 again');
  await expect(metric(page, 'duplicates delivered')).toHaveText('1');
  const step = await playUntil(page, 'reserved 2 times');
  await expect(firstRow(page, 'stock')).toContainText('2');
  const broken = invariant(page, 'inventory reserved once per order');
  await expect(broken).toContainText(`violated at step ${step}`);
  await expect(broken).toContainText('Cause: step 5');

  // The URL reproduces this state after a reload.
  const url = page.url();
  expect(url).toContain('s=outbox-relay');
  expect(url).toContain(`t=${step}`);
  await page.reload();
  await waitForApp(page);
  await stepIs(page, step);
  await expect(firstRow(page, 'stock')).toContainText('2');
  await expect(invariant(page, 'inventory reserved once per order')).toContainText(`violated at step ${step}`);
  expectNoConsoleErrors(problems);
});

test('inbox: the same crash delivers twice and reserves once', async ({ page, problems }) => {
  await crashRelayAfterPublish(page, 'inbox');
  await playUntil(page, 'The inventory service receives e-1 again');
  await playUntil(page, 'the duplicate is absorbed');
  await expect(metric(page, 'duplicates absorbed')).toHaveText('1');
  await expect(page.locator('.narration')).toContainText('ON CONFLICT DO NOTHING');
  await expect(firstRow(page, 'stock')).toContainText('1');
  await page.getByRole('button', { name: 'Go to end' }).click();
  for (const name of ['inventory reserved once per order', 'no lost event', 'events of one order applied in version order']) {
    await expect(invariant(page, name)).toContainText('holds');
  }
  expectNoConsoleErrors(problems);
});

test('every variant opens in both languages with its SQL shown', async ({ page, problems }) => {
  const variants = ['no-dedup', 'inbox', 'inbox-separate-tx', 'delete-after-publish', 'two-relays', 'skip-locked'];
  for (const v of variants) {
    for (const lang of ['en', 'zh']) {
      await page.goto(`?s=outbox-relay&v=${v}&t=3&lang=${lang}`);
      await waitForApp(page);
      await expect(page.getByRole('radio', { checked: true })).toHaveCount(1);
      await expect(page.locator('.narration pre')).toContainText('FROM outbox');
      await expect(page.locator('.notice')).toHaveCount(0);
    }
  }
  expectNoConsoleErrors(problems);
});
