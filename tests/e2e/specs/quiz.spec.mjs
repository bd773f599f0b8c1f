// The quiz on the release build: answers are checked with the notes' explanations, short
// answers are self-scored against the scoring points, progress survives a reload, and garbled or
// throwing localStorage never breaks the page; every "show me" lands on a valid state.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

async function openQuiz(page, query = '?s=dual-write&lang=en', button = 'Quiz', title = 'Interview questions') {
  await page.goto(query);
  await waitForApp(page);
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('answers, explanations, self-scored points, and progress kept across a reload', async ({ page, problems }) => {
  let dialog = await openQuiz(page);
  const q1 = dialog.getByRole('region', { name: /^1\. A payment call was sent/ });
  // Once answered: the verdict names the right option, which is marked, and "Show me" appears.
  await expect(q1.getByRole('link', { name: 'Show me ↗' })).toHaveCount(0);
  await q1.getByLabel(/B\. UNKNOWN, keep the reservation/).click();
  await expect(q1).toContainText('✓ Correct. A mistakes “don\'t know”');
  await expect(q1.getByRole('link', { name: 'Show me ↗' })).toHaveCount(1);
  const q2 = dialog.getByRole('region', { name: /^2\. Resuming a node/ });
  await q2.getByLabel(/A\. Assume a node/).click();
  await expect(q2).toContainText('✗ Not quite — the answer is C.');
  await expect(q2.locator('.opt.right')).toContainText('C. ');
  await expect(q2.locator('.opt.wrong')).toContainText('A. Assume a node');
  const s1 = dialog.getByRole('region', { name: /^10\. An operation is PROCESSING/ });
  await s1.getByText('Answer first, then show the model answer').click();
  await s1.getByLabel(/Reuses the stable identity/).click();
  await expect(dialog.getByRole('status')).toHaveText('Multiple choice answered 2/9 · right 1 · short-answer points 1/32 · follow-ups ready 0/10');
  await page.reload();
  await waitForApp(page);
  await page.getByRole('button', { name: 'Quiz', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'Interview questions' });
  await expect(dialog.getByRole('status')).toHaveText('Multiple choice answered 2/9 · right 1 · short-answer points 1/32 · follow-ups ready 0/10');
  // An interview follow-up: the model answer, the follow-ups, what not to say.
  const ag20 = dialog.getByRole('region', { name: /^19\. AG20/ });
  await ag20.getByText('Answer first, then show the model answer').click();
  await expect(ag20).toContainText('Mark it UNKNOWN, not failed');
  await expect(ag20).toContainText('“Retry three times on a timeout.”');
  await ag20.getByLabel('I could answer this aloud').click();
  await expect(dialog.getByRole('status')).toContainText('follow-ups ready 1/10');
  await dialog.getByRole('button', { name: 'Reset progress' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Multiple choice answered 0/9 · right 0 · short-answer points 0/32 · follow-ups ready 0/10');
  expectNoConsoleErrors(problems);
});

test('garbled or throwing storage: the quiz still works and says progress is not kept', async ({ page, problems }) => {
  await page.addInitScript(() => localStorage.setItem('effectively-once.quiz.v1', 'c1=9999,<script>,zz=1,c2=2'));
  let dialog = await openQuiz(page);
  await expect(dialog.getByRole('status')).toHaveText('Multiple choice answered 1/9 · right 1 · short-answer points 0/32 · follow-ups ready 0/10');
  await page.addInitScript(() => {
    Storage.prototype.getItem = () => { throw new Error('blocked'); };
    Storage.prototype.setItem = () => { throw new Error('QuotaExceededError'); };
  });
  dialog = await openQuiz(page);
  await expect(dialog).toContainText('This browser does not allow saving');
  await dialog.getByRole('region', { name: /^3\. An outbox relay/ }).getByLabel(/B\. The message may be duplicated/).click();
  await expect(dialog).toContainText('✓ Correct.');
  expectNoConsoleErrors(problems);
});

test('every "show me" opens a valid state, in the quiz language', async ({ page, problems }) => {
  const dialog = await openQuiz(page, '?s=dual-write&lang=zh', '测验', '面试题');
  // "Show me" comes with the answer: answer every multiple-choice question first.
  for (const group of await dialog.locator('fieldset').all()) await group.locator('input').first().check();
  const hrefs = await page.locator('#quiz-dialog a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs).toHaveLength(27);
  for (const href of hrefs) {
    expect(href).toContain('lang=zh');
    await page.goto(href);
    await waitForApp(page);
    await expect(page.locator('.notice')).toHaveCount(0);
  }
  void dialog;
  expectNoConsoleErrors(problems);
});

// The questions are fetched on the quiz's first opening (quiz.json): a file that does not load,
// or that is not a quiz (a captive portal's page), is named with the reason and a way to try
// again; the page stays usable meanwhile.
test('a quiz file that does not load, or is not a quiz: the reason, and Try again loads it', async ({ page, problems }) => {
  let mode = 'missing';
  await page.route('**/quiz.json', (route) => {
    if (mode === 'missing') return route.fulfill({ status: 404, body: 'Not found' });
    if (mode === 'portal') return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>Sign in to the Wi-Fi</p>' });
    return route.continue();
  });
  const dialog = await openQuiz(page);
  await expect(dialog.getByRole('alert')).toHaveText('The quiz could not be loaded (HTTP 404). Check the connection and try again.');
  mode = 'portal';
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog.getByRole('alert')).toContainText('The quiz could not be read: ');
  mode = 'real';
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog.getByRole('region', { name: /^1\. A payment call was sent/ })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await expect(page.locator('.counter')).toHaveText(/^Step 1 of/);
  // The one 404 was the test's own; nothing else went wrong.
  expect(problems.badResponses).toEqual([expect.stringMatching(/^404 GET .*quiz\.json$/)]);
  expect(problems.consoleErrors.every((e) => e.includes('404'))).toBe(true);
  expectNoConsoleErrors({ ...problems, badResponses: [], consoleErrors: [] });
});
