// Shared helpers for the e2e specs.
//
//   import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';
//   test('x', async ({ page, problems }) => { await page.goto('./'); ...; expectNoConsoleErrors(problems); });
//
// `problems` is attached to the page BEFORE navigation, so it sees everything during load.
import { test as base, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';

/**
 * Every scenario in the picker's order, each variant with the state the suite looks at (`path`,
 * step `at`: a mistake's failing path, a fix just after a fault) and the figure's name there.
 * Written from the registry by `UPDATE_CONTENT=1 cargo test --test it content::`, so a new scenario
 * needs no edit in the specs that walk them all.
 */
export const SCENARIOS = JSON.parse(readFileSync(new URL('../scenarios.json', import.meta.url), 'utf8'));

/**
 * Start recording console errors, uncaught page errors, failed requests and HTTP responses
 * with status >= 400 on `page`. Call before `page.goto`.
 * @param {import('@playwright/test').Page} page
 */
export function collectPageProblems(page) {
  const problems = { consoleErrors: [], pageErrors: [], failedRequests: [], badResponses: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      problems.consoleErrors.push(`${msg.text()}${loc?.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (err) => problems.pageErrors.push(String(err?.stack || err)));
  page.on('requestfailed', (req) =>
    problems.failedRequests.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText ?? 'failed'}`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) problems.badResponses.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  return problems;
}

/** Fails the test, listing everything recorded by `collectPageProblems`. */
export function expectNoConsoleErrors(problems) {
  const all = [
    ...problems.consoleErrors.map((e) => `console.error: ${e}`),
    ...problems.pageErrors.map((e) => `uncaught: ${e}`),
    ...problems.failedRequests.map((e) => `request failed: ${e}`),
    ...problems.badResponses.map((e) => `HTTP ${e}`),
  ];
  expect(all, 'console errors / failed requests during the test').toEqual([]);
}

/**
 * Wait until the page has loaded and the wasm app has had a chance to start: the static
 * `#shell` is removed by the app, or a "Play" button shows up. Returns which happened, or
 * 'shell-still-present' if neither within `timeout` (does not fail: the app may not exist yet).
 * @param {import('@playwright/test').Page} page
 */
export async function waitForApp(page, { timeout = 10_000 } = {}) {
  await page.waitForLoadState('load');
  await page.waitForLoadState('networkidle');
  try {
    const how = await Promise.any([
      page.locator('#shell').waitFor({ state: 'detached', timeout }).then(() => 'shell-removed'),
      page.getByRole('button', { name: 'Play' }).first().waitFor({ state: 'visible', timeout }).then(() => 'play-visible'),
    ]);
    await settled(page);
    return how;
  } catch {
    return 'shell-still-present';
  }
}

/** Waits until the stage shows all it draws: its words and tables come in the task after its
 *  first frame (`settling`, app.rs). */
export async function settled(page) {
  await expect(page.locator('.stage.settling')).toHaveCount(0);
}

/**
 * Clicks the header's button named `name`; on a phone it sits behind "⋯" (More actions), which
 * is opened first.
 * @param {import('@playwright/test').Page} page
 */
export async function clickHeader(page, name) {
  const button = page.getByRole('button', { name, exact: true });
  if (!(await button.isVisible())) {
    await page.getByRole('button', { name: /^(More actions|更多操作)$/ }).click();
  }
  await button.click();
}

/**
 * The rows of a state table (a `.tbl` figure locator) as arrays of cell texts, without the
 * row annotations the page adds for the eye and for screen readers (● changed, ✗ what a
 * violation is about, and their words).
 * @param {import('@playwright/test').Locator} table
 */
export function cellTexts(table, rows = 'tbody tr') {
  return table.locator(rows).evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => {
    const copy = c.cloneNode(true);
    copy.querySelectorAll('.chg, .hot-mark, .sr-only').forEach((n) => n.remove());
    return copy.textContent.trim();
  })));
}

/**
 * The rows of the state table captioned exactly `title`, as arrays of cell texts (the "(none)"
 * row of an empty table and a table's lost rows left out).
 */
export async function tableRows(page, title) {
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const t = page.locator('.tables figure', { has: page.locator('.tbl-title', { hasText: exact }) });
  await expect(t).toHaveCount(1);
  return cellTexts(t, 'tbody tr:not(.empty-row):not(.lost-row)');
}

/** The invariant named `name` in the Invariants region, in either language. */
export function invariantItem(page, name) {
  return page.getByRole('region', { name: /^(Invariants|不变量)$/ }).locator('li', { hasText: name });
}

/** `test` with a `problems` fixture that records page problems from before the first navigation. */
export const test = base.extend({
  problems: async ({ page }, use) => {
    await use(collectPageProblems(page));
  },
});

export { expect };
