// The home page on the release build: every scenario under its theme with a hook and a drawn
// thumbnail, links that open the scenario, the quiz, and how to embed; in both languages.
import { test, expect, expectNoConsoleErrors, SCENARIOS } from './helpers.mjs';

test('home lists every scenario by theme, opens one, and starts the quiz', async ({ page, problems }) => {
  await page.goto('?home=1&lang=en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Effectively Once: see why exactly-once is not free');
  // No scenario's title: the home page's own.
  await expect(page).toHaveTitle('Effectively Once: see why exactly-once is not free');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText([
    'Dual writes and messaging', 'Concurrency', 'Capacity and backpressure', 'Retries, timeouts and recovery', 'Agents and human approval', 'Quiz', 'How to embed',
  ]);
  const cards = page.locator('.scenario-card');
  await expect(cards).toHaveCount(SCENARIOS.length);
  await expect(page.locator('.scenario-card svg.thumb .mark').first()).toBeAttached();
  // Each card's hook and variant count (the home page's own module holds them, not the page).
  const first = cards.first();
  await expect(first.locator('p')).toHaveText(/^Commit an order and publish its event without a shared transaction/);
  await expect(first.locator('.muted')).toHaveText('3 variants');
  await expect(cards.locator('p').filter({ hasText: /\S/ })).toHaveCount(SCENARIOS.length);
  // Each card's picture is drawn when its scenario's module arrives, fetched as the card comes
  // within a screen of the viewport: at the end of the page, all of them.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.locator('.scenario-card svg.thumb:not(:empty)')).toHaveCount(SCENARIOS.length);
  await expect(page.locator('.counter')).toBeHidden();
  await page.getByRole('button', { name: 'Start the quiz' }).click();
  const quiz = page.getByRole('dialog', { name: 'Interview questions' });
  await expect(quiz).toBeVisible();
  // Its questions are fetched on this first opening (quiz.json).
  await expect(quiz.getByRole('region', { name: /^1\. A payment call was sent/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: /Retry layering: 3 × 3 × 3 = 27/ }).click();
  await expect(page).toHaveURL(/s=retry-layers/);
  await expect(page.locator('.counter')).toHaveText(/^Step 0 of 27$/);
  // Back home from the player's title; Chinese too.
  await page.getByRole('link', { name: 'Effectively Once' }).click();
  await expect(page).toHaveURL(/home=1/);
  // (Leaving before every picture near the viewport has arrived would abort their fetches.)
  await expect(page.locator('.scenario-card svg.thumb:not(:empty)').first()).toBeAttached();
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: '中文' }).click();
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText('双写与消息');
  await expect(cards.first().locator('p')).toHaveText(/^没有共同事务时提交订单并发布事件/);
  await expect(page).toHaveTitle('Effectively Once：看清“恰好一次”的代价');
  expectNoConsoleErrors(problems);
});

test('home on a phone: one column, nothing wider than the screen, in both languages', async ({ page, problems }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const fetched = new Set();
  page.on('request', (r) => {
    const m = /\/split_(\w+)-[0-9a-f]{16}\.wasm$/.exec(r.url());
    if (m && !m[1].startsWith('part_')) fetched.add(m[1]);
  });
  for (const lang of ['en', 'zh']) {
    await page.goto(`?home=1&lang=${lang}`);
    await expect(page.locator('.scenario-card')).toHaveCount(SCENARIOS.length);
    // The pictures of the cards within a screen of the viewport arrive; the others' scenarios
    // are not fetched until the learner scrolls towards them.
    await expect(page.locator('.scenario-card svg.thumb:not(:empty)').first()).toBeAttached();
    await page.waitForLoadState('networkidle');
    if (lang === 'en') expect(fetched.size).toBeLessThan(SCENARIOS.length / 2);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.locator('.scenario-card svg.thumb:not(:empty)')).toHaveCount(SCENARIOS.length);
    expect(fetched.size).toBe(SCENARIOS.length);
    // The embed snippet's long line scrolls inside its own box, not the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const boxes = await page.locator('.scenario-card').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect()));
    expect(new Set(boxes.map((b) => Math.round(b.left))).size, 'one column').toBe(1);
    expect(Math.max(...boxes.map((b) => b.right))).toBeLessThanOrEqual(390);
  }
  expectNoConsoleErrors(problems);
});

// The home page has no player: the player's keys (Space plays, End goes to the last step) are
// not taken from it, so they scroll the page as on any page.
test('Space and End scroll the home page; the player\'s keys are not taken there', async ({ page }) => {
  await page.goto('?home=1&lang=en');
  await expect(page.locator('.scenario-card')).toHaveCount(SCENARIOS.length);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const after = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('End');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(after);
});

test('the home page names a language or theme it cannot use, and nothing it does not read', async ({ page, problems }) => {
  await page.goto('?home=1&lang=zz&theme=pink');
  const notice = page.getByRole('alert');
  await expect(notice).toContainText("The link's language 'lang=zz' is not supported (en or zh).");
  await expect(notice).toContainText("The link's 'theme=pink' is not light, dark or auto; using the default.");
  // Inside the home page's main landmark, dismissed by its button.
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(1);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Effectively Once: see why exactly-once is not free');
  // The player's parameters are the player's: the home page does not judge them.
  await page.goto('?home=1&s=nope&t=x&lang=zh');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.notice')).toHaveCount(0);
  expectNoConsoleErrors(problems);
});

test('before the wasm arrives, the shell shows the home page top as the app will: language, colours, embed', async ({ browser, baseURL }) => {
  const shell = async (locale, query, colorScheme = 'light') => {
    const context = await browser.newContext({ baseURL, locale, colorScheme, serviceWorkers: 'block' });
    const page = await context.newPage();
    // The wasm never arrives: what is on screen is the static shell.
    await page.route(/\.wasm$/, () => {});
    await page.goto(query, { waitUntil: 'domcontentloaded' });
    const h1 = page.locator('#shell h1:visible');
    await expect(h1).toHaveCount(1);
    const seen = {
      h1: await h1.innerText(),
      dark: await page.evaluate(() => getComputedStyle(document.body).backgroundColor === 'rgb(15, 20, 26)'),
      langs: await page.locator('#shell .home-langs').isVisible(),
    };
    await context.close();
    return seen;
  };
  const en = 'Effectively Once: see why exactly-once is not free';
  const zh = 'Effectively Once：看清“恰好一次”的代价';
  expect(await shell('en-US', '?home=1')).toEqual({ h1: en, dark: false, langs: true });
  expect(await shell('zh-CN', '?home=1', 'dark')).toEqual({ h1: zh, dark: true, langs: true });
  expect(await shell('zh-CN', '?s=refund-cap&lang=en')).toEqual({ h1: en, dark: false, langs: true });
  // A language the app cannot use falls back to the browser's, as the app does.
  expect((await shell('zh-CN', '?lang=xx')).h1).toBe(zh);
  // An embed is light unless asked, and has no links to the home page.
  expect(await shell('en-US', '?s=refund-cap&lang=zh&embed=1', 'dark')).toEqual({ h1: zh, dark: false, langs: false });
  expect(await shell('en-US', '?s=refund-cap&embed=1&theme=dark')).toEqual({ h1: en, dark: true, langs: false });
});
