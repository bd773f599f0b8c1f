// Retry layering on the release build: autoplay every-layer-retries to 27 calls; the knobs make
// the counter follow attempts^layers and survive a reload of the deep link; the key alone keeps
// one refund under 27 calls; picking the provider's answer changes the run; the explorer proves
// that one retry authority never exceeds its budget.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
const metric = (page, name) =>
  page.locator('.metrics div', { has: page.locator('dt', { hasText: new RegExp(`^${name.replace(/[\^$()]/g, '\\$&')}$`) }) }).locator('dd');
const invariant = (page, name) =>
  page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: name });
const tree = (page) => page.locator('.calltree');

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^Step 0 of \d+$/);
}

test('every layer retries: autoplay ends at 27 calls and 27 refunds', async ({ page, problems }) => {
  await open(page, '?s=retry-layers&v=every-layer-retries&lang=en');
  await expect(metric(page, 'downstream calls')).toHaveText('1');
  await expect(tree(page)).toContainText('Payment API call #1 · in flight');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('4×');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(counter(page)).toHaveText('Step 27 of 27', { timeout: 60_000 });
  await expect(metric(page, 'downstream calls')).toHaveText('27');
  await expect(metric(page, 'attempts^layers = 3^3')).toHaveText('27');
  await expect(metric(page, 'refunds executed')).toHaveText('27');
  await expect(invariant(page, 'downstream calls within budget')).toContainText('violated at step 3');
  await expect(invariant(page, 'refund executed at most once')).toContainText('violated at step 2');
  await expect(tree(page)).toContainText('Workflow engine · attempt 3 of 3 · ✕ failed (9 calls)');
  await expect(page.locator('.spans figcaption')).toHaveText('27 calls and 27 refunds in 174 s; deadline 120 s.');
  await expect(page.getByRole('region', { name: 'What just happened' })).toContainText('The outermost layer gives up: 27 calls, 27 refunds executed');
  expectNoConsoleErrors(problems);
});

test('the knobs: the count follows attempts^layers, and the deep link keeps them', async ({ page, problems }) => {
  await open(page, '?s=retry-layers&v=every-layer-retries&lang=en');
  const knobs = page.getByRole('region', { name: 'The numbers' });
  await knobs.getByLabel('Layers that retry').fill('2');
  await knobs.getByLabel('Layers that retry').press('Enter');
  await knobs.getByLabel('Attempts per layer').fill('4');
  await knobs.getByLabel('Attempts per layer').press('Enter');
  await expect(page).toHaveURL(/layers=2/);
  await expect(page).toHaveURL(/attempts=4/);
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(counter(page)).toHaveText('Step 16 of 16');
  await expect(metric(page, 'attempts^layers = 4^2')).toHaveText('16');
  await expect(metric(page, 'downstream calls')).toHaveText('16');
  // A provider that never answers: the same load, and nothing refunded.
  await knobs.getByLabel('Payment API behaviour').selectOption({ label: 'Always times out' });
  await expect(page).toHaveURL(/downstream=always-timeout/);
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(metric(page, 'downstream calls')).toHaveText('16');
  await expect(metric(page, 'refunds executed')).toHaveText('0');
  // The link restores every knob.
  await page.reload();
  await waitForApp(page);
  await expect(knobs.getByLabel('Layers that retry')).toHaveValue('2');
  await expect(knobs.getByLabel('Attempts per layer')).toHaveValue('4');
  await expect(knobs.getByLabel('Payment API behaviour')).toHaveValue('always-timeout');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(counter(page)).toHaveText('Step 16 of 16');
  // Four layers of five: 625 calls, one step each.
  await page.goto('?s=retry-layers&v=every-layer-retries&layers=4&attempts=5&downstream=always-timeout&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(counter(page)).toHaveText('Step 625 of 625');
  await expect(metric(page, 'attempts^layers = 5^4')).toHaveText('625');
  expectNoConsoleErrors(problems);
});

test('the key alone: one refund, still 27 calls; both fixes: 3 calls, one refund', async ({ page, problems }) => {
  await open(page, '?s=retry-layers&v=idempotency-key&lang=en');
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(metric(page, 'downstream calls')).toHaveText('27');
  await expect(metric(page, 'refunds executed')).toHaveText('1');
  await expect(invariant(page, 'refund executed at most once')).toContainText('holds');
  await expect(invariant(page, 'downstream calls within budget')).toContainText('violated');
  const keys = page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: 'Saved idempotent results' }) });
  await expect(keys.locator('tbody tr')).toHaveCount(1);
  await expect(keys.locator('tbody tr td').nth(3)).toHaveText('26');
  await page.getByRole('radio', { name: /One authority \+ stable key/ }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  await expect(metric(page, 'downstream calls')).toHaveText('3');
  await expect(metric(page, 'refunds executed')).toHaveText('1');
  await expect(invariant(page, 'downstream calls within budget')).toContainText('holds');
  await expect(invariant(page, 'refund executed at most once')).toContainText('holds');
  expectNoConsoleErrors(problems);
});

test('you pick the answer: a timely answer ends the run; the explorer proves the authority', async ({ page, problems }) => {
  await open(page, '?s=retry-layers&v=one-retry-authority&lang=en');
  // The moves are the provider's answers: the panel says whose they are.
  const answers = page.getByRole('group', { name: 'You are the payment API' });
  await expect(answers.getByRole('button')).toHaveCount(4);
  await answers.getByRole('button', { name: 'Payment API: refund, answer in time' }).click();
  await expect(counter(page)).toHaveText('Step 1 of 1');
  await expect(tree(page)).toContainText('Workflow engine · attempt 1 of 3 · ✓ succeeded (1 call)');
  await expect(metric(page, 'refunds executed')).toHaveText('1');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  const results = page.locator('.exp-results');
  // The native suite's numbers (tests/it/retry_layers.rs).
  await expect(results).toContainText('30 distinct states · 40 runs');
  await expect(results.locator('li', { hasText: 'downstream calls within budget' })).toContainText('holds in all 40 runs');
  await expect(results.locator('li', { hasText: 'refund executed at most once' })).toContainText('violated in 13 of 40 runs');
  expectNoConsoleErrors(problems);
});
