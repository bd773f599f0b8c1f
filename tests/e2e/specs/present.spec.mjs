// Presenter mode on the release build: the clicker keys advance; a step that breaks an
// invariant is first a question to the room and the next key reveals it; speaker notes in both
// languages; Escape leaves.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

test('present: keys advance, predict before the violation, reveal on the next key, notes, exit', async ({ page, problems }) => {
  await page.goto('?s=dual-write&v=commit-then-publish&p=001&t=0&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Present', exact: true }).click();
  await expect(page.locator('.app')).toHaveClass(/present/);
  const bar = page.locator('.present-bar');
  await expect(bar).toContainText('Dual write vs transactional outbox');
  // The page chrome is gone; the player stays.
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeHidden();
  const counter = page.locator('.counter');
  let asked = false;
  for (let i = 0; i < 12 && !asked; i++) {
    const before = await counter.textContent();
    await page.keyboard.press('PageDown');
    if (await page.locator('.predict').count()) {
      asked = true;
      // The question did not move the player.
      await expect(counter).toHaveText(before);
      await expect(page.locator('.predict')).toContainText('Predict first');
      await expect(page.locator('.predict li')).toHaveText(['no lost event', 'no phantom event']);
      await page.keyboard.press('PageDown');
      await expect(page.locator('.predict')).toHaveCount(0);
      await expect(counter).not.toHaveText(before);
      await expect(page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: 'no lost event' })).toContainText('violated');
    }
  }
  expect(asked).toBe(true);
  // Speaker notes, drawn from the seeds' answers, in both languages.
  await page.keyboard.press('n');
  const notes = page.getByRole('complementary', { name: 'Speaker notes (N)' });
  await expect(notes).toContainText('Write the business row and an outbox row in one local transaction');
  await expect(notes).toContainText("Don't say");
  await page.keyboard.press('Escape');
  await expect(page.locator('.app')).not.toHaveClass(/present/);
  await page.goto('?s=checkpoint-replay&v=rerun-node&lang=zh');
  await waitForApp(page);
  await page.getByRole('button', { name: '演示', exact: true }).click();
  await page.keyboard.press('n');
  await expect(page.getByRole('complementary', { name: '演讲备注（N）' })).toContainText('checkpoint 就是 exactly-once');
  expectNoConsoleErrors(problems);
});

// The notes are fetched on entering presenter mode (notes.json): with the network gone they say
// so in the notes panel, and Try again loads them.
test('speaker notes that do not load: the reason in the notes, and Try again loads them', async ({ page, problems }) => {
  let fail = true;
  await page.route('**/notes.json', (route) => (fail ? route.abort('internetdisconnected') : route.continue()));
  await page.goto('?s=dual-write&v=commit-then-publish&lang=en');
  await waitForApp(page);
  await page.getByRole('button', { name: 'Present', exact: true }).click();
  await page.keyboard.press('n');
  const notes = page.getByRole('complementary', { name: 'Speaker notes (N)' });
  await expect(notes.getByRole('alert')).toHaveText('The speaker notes could not be loaded (network error). Check the connection and try again.');
  fail = false;
  await notes.getByRole('button', { name: 'Try again' }).click();
  await expect(notes).toContainText('Write the business row and an outbox row in one local transaction');
  expect(problems.failedRequests).toEqual([expect.stringMatching(/notes\.json: net::ERR_INTERNET_DISCONNECTED$/)]);
  expectNoConsoleErrors({ ...problems, failedRequests: [], consoleErrors: problems.consoleErrors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED')) });
});
