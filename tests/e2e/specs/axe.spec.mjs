import AxeBuilder from '@axe-core/playwright';
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

test('home page has no axe accessibility violations', async ({ page, problems }) => {
  await page.goto('/');
  await waitForApp(page);

  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, 'axe violations').toEqual([]);
  expectNoConsoleErrors(problems);
});
