import AxeBuilder from '@axe-core/playwright';
import { test, expect, expectNoConsoleErrors, waitForApp, settled, clickHeader, SCENARIOS } from './helpers.mjs';

// The tests are independent pages: with more than one worker (.ci/test runs this file with two)
// they are shared out one by one, not kept in one worker as a file's tests are by default.
test.describe.configure({ mode: 'parallel' });

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
  { name: 'home, dark, Chinese, phone, with a notice', q: '?home=1&lang=zh&theme=pink', home: true, scheme: 'dark', width: 390, height: 844 },
  { name: 'audience window, dark, phone', q: '?s=dual-write&v=commit-then-publish&p=001&t=8&audience=k1&lang=en', audience: true, scheme: 'dark', width: 390, height: 844 },
  { name: 'presenter with notes and a prediction, Chinese', q: '?s=dual-write&v=commit-then-publish&p=001&t=8&lang=zh', click: '演示', keys: ['n', 'PageDown'] },
];

for (const s of states) {
  test(`no axe violations: ${s.name}`, async ({ page, problems }) => {
    if (s.scheme) await page.emulateMedia({ colorScheme: s.scheme });
    if (s.width) await page.setViewportSize({ width: s.width, height: s.height });
    await page.goto(s.q);
    if (s.home) {
      await expect(page.locator('.scenario-card')).toHaveCount(SCENARIOS.length);
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
const variants = SCENARIOS.flatMap((s) =>
  s.variants.map((v) => [s.slug, v.slug, v.path ? `p=${v.path}&t=${v.at}` : `t=${v.at}`]),
);
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
    await settled(page);
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
