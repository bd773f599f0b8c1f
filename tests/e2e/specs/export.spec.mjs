// Export and import on the release build: the SVG parses and names every lane; the PNG is a PNG;
// the Markdown holds the tables; the Mermaid text passes Mermaid's own parser; a run exported
// as JSON opens back to the same state; a garbled or changed file is refused and changes nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test, expect, expectNoConsoleErrors, waitForApp } from './helpers.mjs';

const require = createRequire(import.meta.url);
const STATE = '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en';

async function open(page, query) {
  await page.goto(query);
  await waitForApp(page);
}

/** Clicks an export button and returns the downloaded file's name and bytes. */
async function exportFile(page, label) {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export this run' });
  await expect(dialog).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: label }).click()]);
  const path = await download.path();
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}

test('SVG, PNG, Markdown and Mermaid are drawn from the run', async ({ page, browser, problems }) => {
  await open(page, STATE);
  const svg = await exportFile(page, 'Timeline as SVG');
  expect(svg.name).toBe('dual-write-commit-then-publish-step9.svg');
  // Parsed in a blank page of its own: the file's <style> is not the app's business (its CSP).
  const blank = await browser.newPage();
  await blank.setContent('<!doctype html><html><body></body></html>');
  const parsed = await blank.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      root: doc.documentElement.nodeName,
      labels: [...doc.querySelectorAll('text.lane-label')].map((t) => t.textContent),
      marks: doc.querySelectorAll('.mark').length,
    };
  }, svg.bytes.toString('utf8'));
  expect(parsed.error).toBe(0);
  expect(parsed.root).toBe('svg');
  expect(parsed.labels).toEqual(['Order service', 'Database', 'Broker', 'Inventory']);
  expect(parsed.marks).toBeGreaterThan(3);

  const png = await exportFile(page, 'Timeline as PNG');
  expect(png.name.endsWith('.png')).toBe(true);
  expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  const md = (await exportFile(page, 'State tables as Markdown')).bytes.toString('utf8');
  expect(md).toContain('### Dual write vs transactional outbox — step 9');
  expect(md).toContain('**orders**\n\n| id | status |');
  expect(md).toContain('- no lost event — ✗ violated');

  const mmd = (await exportFile(page, 'Run as a Mermaid sequence diagram')).bytes.toString('utf8');
  expect(mmd.startsWith('sequenceDiagram\n')).toBe(true);
  // Mermaid's own parser, in the blank page (not under the app's CSP).
  await blank.addScriptTag({ path: require.resolve('mermaid/dist/mermaid.min.js') });
  const verdict = await blank.evaluate(async (text) => {
    try {
      return (await window.mermaid.parse(text)) ? 'ok' : 'no';
    } catch (e) {
      return String(e && e.message ? e.message : e);
    }
  }, mmd);
  expect(verdict).toBe('ok');
  // And a broken one is refused by the same parser (the check can fail).
  const broken = await blank.evaluate(async (text) => {
    try {
      await window.mermaid.parse(text);
      return 'ok';
    } catch {
      return 'refused';
    }
  }, mmd.replace('->>', '->>>>>'));
  expect(broken).toBe('refused');
  await blank.close();
  expectNoConsoleErrors(problems);
});

test('a run exported as JSON opens back to the same state; bad files change nothing', async ({ page, problems }) => {
  await open(page, '?s=refund-cap&v=read-then-write&p=0000000010&t=6&cap=150&lang=en');
  const file = (await exportFile(page, 'Run as a file (JSON)')).bytes.toString('utf8');
  const run = JSON.parse(file);
  expect(run).toMatchObject({ format: 'effectively-once-run', version: 2, scenario: 'refund-cap', variant: 'read-then-write', knobs: { cap: 150 }, step: 6 });
  const counterThere = await page.locator('.counter').textContent();

  // Somewhere else entirely, then open the file.
  await open(page, '?s=dual-write&v=outbox&t=2&lang=en');
  const importFile = async (name, text) => {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByLabel('Choose a .json file saved from here').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  };
  await importFile('run.json', file);
  await expect(page).toHaveURL(/s=refund-cap/);
  await expect(page).toHaveURL(/v=read-then-write/);
  await expect(page).toHaveURL(/cap=150/);
  await expect(page).toHaveURL(/t=6/);
  await expect(page.locator('.counter')).toHaveText(counterThere);
  await expect(page.getByRole('dialog', { name: 'Export this run' })).toBeHidden();

  // Garbled, tampered, or not ours: a clear message, and the state stays as it is.
  const before = page.url();
  const cases = [
    ['garbled.json', '{"format": "effectively-once-run", "version": 1, "scen', 'is not valid JSON'],
    ['tampered.json', file.replace('"read', '"READ').replace(/"A: resume[^"]*"/, '"A: nothing"'), 'The file was not opened'],
    ['changed.json', file.replace(/("steps": \[\n\s*"start",\n\s*)"[^"]*"/, '$1"Something else"'), 'it was changed: step 1'],
    ['other.json', '{"hello": "world"}', 'not an Effectively Once run file'],
  ];
  for (const [name, text, message] of cases) {
    await importFile(name, text);
    const dialog = page.getByRole('dialog', { name: 'Export this run' });
    await expect(dialog.getByRole('alert')).toContainText(message);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(page.url()).toBe(before);
  }
  await expect(page.locator('.notice').first()).toContainText('The file was not opened');
  expectNoConsoleErrors(problems);
});
