// Human approval on the release build: after Alice's "yes" in the chat, the agent edits the
// amount and the provider refunds 800.00; a second "yes" refunds twice. With a versioned
// proposal the same changes meet UPDATE 0 and the approval link clicked twice changes nothing;
// the Chinese page says the same.
import { test, expect, expectNoConsoleErrors, waitForApp, cellTexts } from './helpers.mjs';

const counter = (page) => page.locator('.counter');
/** The rows of table `title` (by its caption), as arrays of cell texts. */
const rows = async (page, title) => {
  const t = page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: new RegExp(`^${title}$`) }) });
  return cellTexts(t);
};
const invariant = (page, name) => page.getByRole('region', { name: /^(Invariants|不变量)$/ }).locator('li', { hasText: name });

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
  await expect(counter(page)).toHaveText(/^(Step 0 of \d+|第 0 步，共 \d+ 步)$/);
}

async function forward(page, n) {
  const button = page.getByRole('button', { name: /^(Step forward|前进一步)$/ });
  for (let i = 0; i < n; i++) await button.click();
}

test('a “yes” in the chat: the edited amount is refunded, and a second “yes” refunds again', async ({ page, problems }) => {
  await open(page, '?s=approval&v=approve-chat-text&lang=en');
  // The moves are the agent's and Alice's, not a scheduler's.
  await expect(page.getByRole('group', { name: 'Alice and the agent' })).toContainText('Agent: propose the refund');
  await forward(page, 2); // the proposal in the chat, Alice's "yes"
  expect((await rows(page, 'Chat with Alice')).map((r) => r[2])).toEqual([
    'Refund 80.00 USD on ord-2042? Valid until 10:15.',
    'yes',
  ]);
  await page.getByRole('button', { name: 'Agent edits the amount to 800.00' }).click();
  expect((await rows(page, 'Agent memory'))[0][1]).toBe('800.00');
  await forward(page, 1); // the agent executes
  expect(await rows(page, 'Provider ledger')).toEqual([['re_1', 'agent-7', '(none)', '800.00', '3', '10:03']]);
  const exact = invariant(page, 'executed exactly what was approved');
  await expect(exact).toContainText('violated at step 4');
  await expect(exact).toContainText('The provider refunded 800.00 (re_1) on ord-2042, but Alice approved 80.00');

  // The "yes" twice: two refunds of 80.00 on one approval.
  await open(page, '?s=approval&v=approve-chat-text&lang=en');
  await forward(page, 3); // propose, yes, execute
  await page.getByRole('button', { name: "Alice's “yes” arrives twice" }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'Provider ledger')).map((r) => r[3])).toEqual(['80.00', '80.00']);
  await expect(invariant(page, 'executed at most once')).toContainText('The agent executed 2 refunds on one approval');
  expectNoConsoleErrors(problems);
});

test('a versioned proposal: the edit, the changed order and the second click change nothing', async ({ page, problems }) => {
  await open(page, '?s=approval&v=approve-versioned-proposal&lang=en');
  await forward(page, 2); // proposal pr-1, Alice approves
  const proposal = (await rows(page, 'proposals'))[0];
  expect(proposal.slice(0, 9)).toEqual(['pr-1', 'm-88', 'ord-2042', 'refund', '80.00', 'USD', '3', '10:15', 'agent-7']);
  expect(proposal[10]).toBe('APPROVED');
  await page.getByRole('button', { name: 'Agent edits the amount to 800.00' }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'Execute calls')).toEqual([['#1', '0 → ROLLBACK', 'refused: not the approved digest; propose again']]);
  expect(await rows(page, 'Provider ledger')).toEqual([['(no refund)']]);
  for (const name of ['executed exactly what was approved', 'executed at most once']) {
    await expect(invariant(page, name)).toContainText('holds');
  }

  // Support refunds 50.00 meanwhile: the order's version check rolls the execute back.
  await open(page, '?s=approval&v=approve-versioned-proposal&lang=en');
  await forward(page, 2);
  await page.getByRole('button', { name: 'Support refunds 50.00 meanwhile' }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect((await rows(page, 'Execute calls'))[0][1]).toBe('1, 0 → ROLLBACK');
  expect((await rows(page, 'orders'))[0]).toEqual(['ord-2042', 'PARTIALLY_REFUNDED', '4', '1,000.00', '50.00']);

  // The link clicked twice: one approval row, one refund.
  await open(page, '?s=approval&v=approve-versioned-proposal&lang=en');
  await forward(page, 2);
  await page.getByRole('button', { name: 'Alice clicks the approval link twice' }).click();
  await page.getByRole('button', { name: 'Go to end' }).click();
  expect(await rows(page, 'approvals')).toHaveLength(1);
  expect((await rows(page, 'Provider ledger')).map((r) => r[2])).toEqual(['pr-1']);
  expect((await rows(page, 'Execute calls')).map((r) => r[2])).toEqual([
    'executed: refund re_1',
    'refused: pr-1 is already EXECUTED',
  ]);
  await expect(invariant(page, 'executed at most once')).toContainText('holds');
  // Every run within two changes, in the explorer's worker: the fix holds in all of them.
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(page.locator('.exp-results')).toContainText('31 distinct states');
  for (const name of ['executed exactly what was approved', 'executed at most once']) {
    await expect(page.locator('.exp-results li', { hasText: name })).toContainText('holds in all 27 runs');
  }
  expectNoConsoleErrors(problems);
});

test('in Chinese: the chat “yes” is broken by the expiry, the versioned proposal holds', async ({ page, problems }) => {
  await open(page, '?s=approval&v=approve-chat-text&lang=zh');
  await expect(page.getByRole('group', { name: 'Alice 与 Agent' })).toContainText('Agent：提出退款提案');
  await forward(page, 2);
  await page.getByRole('button', { name: '让批准过期（过了 10:15）' }).click();
  await forward(page, 1);
  expect((await rows(page, '支付方账本'))[0][5]).toBe('10:20');
  await expect(invariant(page, '执行的正是被批准的')).toContainText('批准在 10:15 就已过期');
  await page.getByRole('radio', { name: /带版本的提案/ }).click();
  await expect(page).toHaveURL(/v=approve-versioned-proposal/);
  await page.getByRole('button', { name: '回到开头' }).click();
  await forward(page, 2);
  await page.getByRole('button', { name: '让批准过期（过了 10:15）' }).click();
  await page.getByRole('button', { name: '跳到结尾' }).click();
  expect((await rows(page, '执行调用'))[0][2]).toBe('拒绝：10:15 已过期；需重新审批');
  await expect(invariant(page, '执行的正是被批准的')).not.toContainText('违反');
  expectNoConsoleErrors(problems);
});
