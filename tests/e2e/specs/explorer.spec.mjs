// The explorer panel on the release build: exhaustive exploration in a Web Worker, with the
// native tests' pinned counts, "Show me", "Prove the fix", cancel, and a page that keeps playing.
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const results = (page) => page.locator('.exp-results');
const counter = (page) => page.locator('.counter');

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
  await expect(page.getByRole('button', { name: 'Explore every run' })).toBeVisible();
}

test('explores every run, shows the shortest counterexample, and proves the fix', async ({ page, problems }) => {
  await open(page, '?s=dual-write&v=commit-then-publish&lang=en');
  await expect(page.getByRole('combobox', { name: 'Faults per run' })).toHaveValue('3');
  const started = page.waitForEvent('worker');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  // The worker of this build: its loader is named by its content, as index.html says.
  const named = await page.locator('meta[name="explorer-worker"]').getAttribute('content');
  expect(named).toMatch(/^\.\/explorer_loader-[0-9a-f]{16}\.js$/);
  expect((await started).url()).toMatch(new RegExp(`/${named.slice(2).replace('.', '\\.')}$`));
  // The same numbers as the native suite (tests/it/dual_write.rs, BENCHMARKS.md).
  await expect(results(page)).toContainText('187 distinct states · 201 runs');
  const lost = results(page).locator('li', { hasText: 'no lost event' });
  await expect(lost).toContainText('violated in 80 of 201 runs (39.8 %)');
  await expect(lost).toContainText('shortest counterexample: 7 steps');
  await expect(results(page).locator('li', { hasText: 'no phantom event' })).toContainText('holds in all 201 runs');

  await page.getByRole('button', { name: 'Prove the fix: Transactional outbox' }).click();
  const table = results(page).locator('table.exp-compare');
  await expect(table).toContainText('holds in all 32,088,203 runs');
  await expect(table.locator('tr', { hasText: 'no lost event' }).locator('td').first()).toContainText('violated in 80 of 201');
  // The fix's verdicts once, in the table; each exploration's time in milliseconds.
  await expect(results(page).locator('.exp-list')).toHaveCount(1);
  await expect(results(page).locator('.exp-totals')).toHaveCount(2);
  for (const totals of await results(page).locator('.exp-totals').all()) {
    await expect(totals).toContainText(/ · (\d+ ms|under 1 ms)/);
  }

  // "Show me" opens the counterexample where it breaks (its 7th step), and the results stay.
  await lost.first().getByRole('button', { name: 'Show me' }).click();
  await expect(counter(page)).toHaveText(/^Step 7 of \d+$/);
  expect(page.url()).toContain('p=0010010');
  await expect(page.getByRole('region', { name: 'Invariants' }).locator('li', { hasText: 'no lost event' }))
    .toContainText('violated at step 7');
  await expect(lost.first()).toContainText('violated in 80 of 201 runs (39.8 %)');
  expectNoConsoleErrors(problems);
});

test('exploring fetches the worker and the explored scenario\'s module only; a failed fetch says so, and exploring again works', async ({ page }) => {
  const fetched = [];
  page.on('request', (r) => {
    const m = /\/explorer_split_(\w+)-[0-9a-f]{16}\.wasm$/.exec(r.url());
    if (m) fetched.push(m[1]);
  });
  let fail = true;
  await page.route(/\/explorer_split_refund_cap-[0-9a-f]{16}\.wasm$/, (route) => (fail ? route.abort() : route.continue()));
  await page.goto('?s=refund-cap&v=read-then-write&lang=zh');
  await waitForApp(page);
  const explore = page.getByRole('button', { name: '检查所有运行' });
  await explore.click();
  await expect(results(page).getByRole('alert')).toContainText('无法加载这个场景的穷举检查模块');
  expect(fetched).toEqual(['refund_cap']);
  fail = false;
  await explore.click();
  await expect(results(page)).toContainText('个不同状态');
  // The fix is the same scenario: its module is here already.
  await page.getByRole('button', { name: /^验证修复/ }).click();
  await expect(results(page).locator('table.exp-compare')).toBeVisible();
  expect(fetched).toEqual(['refund_cap', 'refund_cap']);
});

test('an exploration fetches its scenario\'s module beside the worker\'s own wasm, not after it', async ({ page }) => {
  const events = [];
  // A slow worker wasm: the scenario's module must be on its way before it arrives.
  await page.route(/\/explorer-[0-9a-f]{16}_bg\.wasm$/, async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  page.on('request', (r) => {
    const m = /\/explorer_(split|chunks)[-_](\w+)-[0-9a-f]{16}\.(wasm|bin)$/.exec(r.url());
    if (m) events.push(`${m[1] === 'split' ? 'module' : 'pack'} ${m[2]}`);
  });
  page.on('requestfinished', (r) => {
    if (/\/explorer-[0-9a-f]{16}_bg\.wasm$/.test(r.url())) events.push('worker wasm arrived');
  });
  await open(page, '?s=refund-cap&v=read-then-write&lang=en');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(results(page)).toContainText('46 distinct states');
  expect(events).toEqual(['module refund_cap', 'pack refund_cap', 'worker wasm arrived']);
  events.length = 0;
  const picker = page.getByRole('combobox', { name: 'Scenario' });
  await picker.selectOption(await picker.locator('option', { hasText: 'Dual write' }).getAttribute('value'));
  await expect(page).toHaveTitle(/Dual write/);
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(results(page)).toContainText('distinct states');
  // Another scenario resets the panel and stops its worker; the next one is named by its own.
  expect(events).toEqual(['module dual_write', 'pack dual_write', 'worker wasm arrived']);
});

test('a smaller fault budget explores fewer states; the two-relay counts match the native suite', async ({ page, problems }) => {
  await open(page, '?s=outbox-relay&v=two-relays&lang=en');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(results(page)).toContainText('117,610 distinct states', { timeout: 20_000 });
  await expect(results(page).locator('li', { hasText: 'each row published by one relay at a time' }))
    .toContainText('shortest counterexample: 3 steps');
  await page.getByRole('combobox', { name: 'Faults per run' }).selectOption('1');
  await expect(results(page)).not.toContainText('distinct states');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(results(page)).toContainText('distinct states');
  await expect(results(page)).not.toContainText('117,610');
  expectNoConsoleErrors(problems);
});

test('cancel stops the worker, and the page keeps animating while it explores', async ({ page, problems }) => {
  await open(page, '?s=outbox-relay&v=two-relays&lang=en');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Explore every run' })).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(results(page)).not.toContainText('distinct states');
  // Cancel terminates the worker: a fetch of its scenario's module still under way (it starts
  // beside the worker's own wasm) is aborted, by the cancel, not by a failure.
  problems.failedRequests = problems.failedRequests.filter((r) => !/\/explorer_[^/]*: net::ERR_ABORTED$/.test(r));

  // A new exploration starts a fresh worker; meanwhile the main thread keeps drawing frames,
  // and no task on it takes over 50 ms (a long-task observer watches the whole exploration).
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
    window.__frames = 0;
    const tick = () => {
      window.__frames += 1;
      if (!window.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const start = Date.now();
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await expect(results(page)).toContainText('117,610 distinct states', { timeout: 20_000 });
  const elapsed = Date.now() - start;
  const { frames, long } = await page.evaluate(() => {
    window.__stop = true;
    return { frames: window.__frames, long: window.__long };
  });
  // A blocked main thread would draw no frame until the exploration ended.
  expect(frames).toBeGreaterThan(elapsed / 100);
  expect(long, 'main-thread tasks over 50 ms during exploration').toEqual([]);

  // And the player answers while the worker explores.
  await open(page, '?s=outbox-relay&v=two-relays&lang=en');
  await page.getByRole('button', { name: 'Explore every run' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await expect(counter(page)).toHaveText(/^Step 1 of \d+$/);
  await expect(results(page)).toContainText('117,610 distinct states', { timeout: 20_000 });
  expectNoConsoleErrors(problems);
});

test('the explorer speaks Chinese too', async ({ page, problems }) => {
  await page.goto('?s=outbox-relay&v=no-dedup&lang=zh');
  await waitForApp(page);
  await page.getByRole('button', { name: '检查所有运行' }).click();
  await expect(results(page)).toContainText('15,157 个不同状态');
  await expect(results(page)).toContainText('次被违反');
  await expect(results(page).getByRole('button', { name: '查看演示' }).first()).toBeVisible();
  expectNoConsoleErrors(problems);
});

test('compare: the fix side by side on the same fault schedule, deep-linked', async ({ page, problems }) => {
  await open(page, '?s=outbox-relay&v=no-dedup&p=00003&t=17&lang=en');
  await page.getByRole('button', { name: 'Compare side by side with Inbox, same transaction' }).click();
  const cmp = page.getByRole('region', { name: /Compare side by side with/ });
  await expect(cmp).toBeVisible();
  expect(page.url()).toContain('cmp=inbox');
  // Two runs' timelines, one above the other, replace the stage, in view; where they differ
  // is tinted on both.
  await expect(cmp.locator('.cmp-run')).toHaveCount(2);
  await expect(page.locator('.stage')).toBeHidden();
  await expect(cmp).toBeInViewport();
  expect(await cmp.locator('.cmp-run').nth(0).locator('.col.tinted').count()).toBeGreaterThan(0);
  await expect(cmp.locator('.cmp-run').nth(0).locator('.viol-col')).toHaveCount(1);
  await expect(cmp.locator('.cmp-run').nth(1).locator('.viol-col')).toHaveCount(0);
  const [naive, fixed] = [cmp.locator('.cmp-col').nth(0), cmp.locator('.cmp-col').nth(1)];
  await expect(naive.locator('h3')).toHaveText('No dedup');
  await expect(fixed.locator('h3')).toHaveText('Inbox, same transaction');
  // The verdict that differs, and the tables that differ, say so in words.
  await expect(naive.locator('li', { hasText: 'inventory reserved once per order' })).toContainText('≠ differs');
  await expect(naive.locator('li', { hasText: 'inventory reserved once per order' })).toContainText('violated at step 17');
  await expect(fixed.locator('li', { hasText: 'inventory reserved once per order' })).toContainText('holds');
  await expect(fixed.locator('figure', { hasText: 'processed_messages' })).toContainText('≠ only here');
  await expect(naive.locator('figure', { hasText: 'stock' }).first()).toContainText('≠ differs');
  // One player drives both: stepping back moves both columns.
  await page.getByRole('button', { name: 'Step back' }).click();
  await expect(naive.locator('li', { hasText: 'inventory reserved once per order' })).not.toContainText('≠ differs');
  // The link reproduces the comparison.
  await page.reload();
  await waitForApp(page);
  await expect(page.getByRole('region', { name: /Compare side by side with/ })).toBeVisible();
  await page.getByRole('button', { name: 'Close the comparison' }).click();
  await expect(page.locator('.compare')).toBeHidden();
  expect(page.url()).not.toContain('cmp=');
  expectNoConsoleErrors(problems);
});

test('break it: moves against the explorer\'s best, and nobody wins against a fix', async ({ page, problems }) => {
  await open(page, '?s=outbox-relay&v=two-relays&t=6&lang=en');
  await page.getByRole('button', { name: 'Break it' }).click();
  await expect(page.getByRole('button', { name: 'Break it' })).toHaveAttribute('aria-pressed', 'true');
  expect(page.url()).toContain('mode=break');
  await expect(counter(page)).toHaveText(/^Step 0 of \d+$/);
  const card = page.getByRole('region', { name: 'Break it' });
  await expect(card).toContainText('Moves: 0');
  await expect(card).toContainText('Best possible: 3 moves (each row published by one relay at a time)');
  const forward = page.getByRole('button', { name: 'Step forward' });
  for (let i = 0; i < 4; i++) await forward.click();
  await expect(card).toContainText('You broke “each row published by one relay at a time” in 4 moves.');
  await card.getByRole('button', { name: 'Start over' }).click();
  await expect(card).toContainText('Moves: 0');
  await expect(card).not.toContainText('You broke');
  // On the fix, the explorer's proof is why nobody can win.
  await page.getByRole('radio', { name: /Two relays, SKIP LOCKED/ }).click();
  await expect(card).toContainText('Nobody can win here');
  await card.getByRole('button', { name: 'Back to the player' }).click();
  await expect(card).toBeHidden();
  expect(page.url()).not.toContain('mode=break');
  expectNoConsoleErrors(problems);
});
