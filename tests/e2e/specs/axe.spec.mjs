import AxeBuilder from '@axe-core/playwright';
import { test, expect, expectNoConsoleErrors, waitForApp, clickHeader } from './helpers.mjs';

// Several states, because what is on screen changes: a violation, a crashed lane, a notice,
// Chinese, dark mode and the phone layout.
const states = [
  { name: 'start, light, wide', q: '?s=dual-write&lang=en' },
  { name: 'violated, dark', q: '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en', scheme: 'dark' },
  { name: 'crashed relay, Chinese', q: '?s=dual-write&v=outbox&p=0000000100&t=8&lang=zh' },
  { name: 'notice, phone', q: '?s=nope&lang=en', width: 390, height: 844 },
  { name: 'compare view, dark', q: '?s=outbox-relay&v=no-dedup&p=00003&t=17&cmp=inbox&lang=en', scheme: 'dark' },
  { name: 'break it, Chinese, phone', q: '?s=outbox-relay&v=two-relays&t=4&mode=break&lang=zh', width: 390, height: 844 },
  { name: 'explorer results, light', q: '?s=dual-write&v=commit-then-publish&lang=en', explore: true },
  { name: 'export dialog, dark', q: '?s=retry-layers&lang=en', scheme: 'dark', click: 'Export' },
  { name: 'quiz dialog, Chinese, phone', q: '?s=dual-write&lang=zh', click: '测验', width: 390, height: 844 },
  { name: 'quiz dialog, dark', q: '?s=dual-write&lang=en', click: 'Quiz', scheme: 'dark' },
  { name: 'home, light', q: '?home=1&lang=en', home: true },
  { name: 'home, dark, Chinese, phone', q: '?home=1&lang=zh', home: true, scheme: 'dark', width: 390, height: 844 },
  { name: 'audience window, dark, phone', q: '?s=dual-write&v=commit-then-publish&p=001&t=8&audience=k1&lang=en', audience: true, scheme: 'dark', width: 390, height: 844 },
  { name: 'presenter with notes and a prediction, Chinese', q: '?s=dual-write&v=commit-then-publish&p=001&t=8&lang=zh', click: '演示', keys: ['n', 'PageDown'] },
];

for (const s of states) {
  test(`no axe violations: ${s.name}`, async ({ page, problems }) => {
    if (s.scheme) await page.emulateMedia({ colorScheme: s.scheme });
    if (s.width) await page.setViewportSize({ width: s.width, height: s.height });
    await page.goto(s.q);
    if (s.home) {
      await expect(page.locator('.scenario-card')).toHaveCount(15);
    } else if (s.audience) {
      await waitForApp(page);
      await expect(page.locator('.present-bar')).toContainText('Audience view');
    } else {
      await waitForApp(page);
      await expect(page.getByRole('button', { name: /^(Play|播放)$/ })).toBeVisible();
    }
    if (s.click) {
      await clickHeader(page, s.click);
      for (const k of s.keys ?? []) await page.keyboard.press(k);
      if (s.keys) await expect(page.locator('.predict')).toBeVisible();
    }
    if (s.explore) {
      await page.getByRole('button', { name: 'Explore every run' }).click();
      await page.getByRole('button', { name: /Prove the fix/ }).click();
      await expect(page.locator('.exp-compare')).toBeVisible();
    }
    const results = await new AxeBuilder({ page }).analyze();
    const summary = results.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect(summary, 'axe violations').toEqual([]);
    expectNoConsoleErrors(problems);
  });
}

// Every variant of every scenario, in both languages and both colour schemes, at a step where
// something has happened (a crash, where the path offers one).
const variants = [
  ...['commit-then-publish', 'publish-then-commit', 'outbox'].map((v) => ['dual-write', v, 'p=001&t=3']),
  ...['no-dedup', 'inbox', 'inbox-separate-tx', 'delete-after-publish', 'two-relays', 'skip-locked'].map(
    (v) => ['outbox-relay', v, 't=5'],
  ),
  ...['read-then-write', 'mutex-one-instance', 'mutex-two-instances', 'conditional-update', 'select-for-update', 'semaphore-2'].map(
    (v) => ['refund-cap', v, 't=4'],
  ),
  ...['every-layer-retries', 'one-retry-authority', 'idempotency-key', 'temporal-defaults', 'both-fixes'].map(
    (v) => ['retry-layers', v, 't=2'],
  ),
  ...['mark-failed-new-key', 'unknown-same-key'].map((v) => ['unknown-outcome', v, 'p=00002&t=5']),
  ['unknown-outcome', 'key-expired', 'p=00010000&t=8'],
  ['unknown-outcome', 'reconcile-first', 'p=0001003&t=7'],
  ...['check-then-insert', 'unique-constraint', 'changed-parameters'].map((v) => ['unknown-outcome', v, 't=5']),
  ...['rerun-node', 'operation-id', 'in-memory-saver'].map((v) => ['checkpoint-replay', v, 'p=0001&t=4']),
  ...['unbounded-queue', 'admission-control', 'throttled-channel', 'paced-to-channel'].map((v) => ['backpressure', v, 'p=01&t=17']),
  ...['new-charge-per-delivery', 'message-id-dedup', 'stable-intent'].map((v) => ['duplicate-charge', v, 'p=000002&t=10']),
  ...['cancel-means-undone', 'cancel-then-ask-once', 'cancel-then-reconcile'].map((v) => ['cancellation', v, 'p=0000001&t=8']),
  ...['approve-chat-text', 'approve-versioned-proposal'].map((v) => ['approval', v, 'p=002&t=4']),
  ...['retry-forever', 'log-and-drop', 'dead-letter', 'blind-replay', 'checked-replay'].map((v) => ['dead-letter', v, 't=3']),
  ...['sync-wait', 'no-request-key', 'accept-202'].map((v) => ['order-api', v, 't=2']),
  ...['no-fencing', 'fenced', 'fenced-with-key'].map((v) => ['lease-fencing', v, 'p=01&t=3']),
  ...['last-write-wins', 'version-guard', 'state-machine'].map((v) => ['event-order', v, 'p=200&t=3']),
  ...['per-instance-semaphore', 'shared-counter', 'leases'].map((v) => ['semaphore-scope', v, 'p=002&t=4']),
];
// One page per variant: the language is switched with its button and the colour scheme by
// emulation, so the four combinations cost one load.
for (const [scenario, v, at] of variants) {
  test(`no axe violations: ${scenario}/${v}, en and zh, light and dark`, async ({ page, problems }) => {
    test.setTimeout(120_000); // four analyses
    // Reduced motion: the language switch redraws the tables, and axe must judge the colours
    // they settle on, not a frame of the highlight that flashes changed rows.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`?s=${scenario}&v=${v}&${at}&lang=en`);
    await expect(page.locator('.counter')).toBeVisible();
    await expect(page.locator('.notice')).toHaveCount(0);
    const found = [];
    for (const lang of ['en', 'zh']) {
      if (lang === 'zh') {
        await page.getByRole('button', { name: '中文' }).click();
        await expect(page.locator('html')).toHaveAttribute('lang', /^zh/);
      }
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        const results = await new AxeBuilder({ page }).analyze();
        found.push(
          ...results.violations.map(
            (x) => `${lang}/${scheme}: ${x.id} (${x.impact}): ${x.help} — ${x.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          ),
        );
      }
    }
    expect(found, 'axe violations').toEqual([]);
    expectNoConsoleErrors(problems);
  });
}
