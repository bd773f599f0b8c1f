// Playwright config for the built site (run `trunk build --release` first; .ci/test does).
// Uses Debian's /usr/bin/chromium: never run `npx playwright install` (no browser downloads here).
import { defineConfig } from '@playwright/test';
import { mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const dist = resolve(root, 'dist');
// Override with E2E_PORT if 8081 is taken (e.g. by a manual `python3 -m http.server 8081`).
const PORT = Number(process.env.E2E_PORT || 8081);

// Project-local temp dir (browser profiles etc.); gitignored under target/.
process.env.TMPDIR = resolve(root, 'target/tmp');
mkdirSync(process.env.TMPDIR, { recursive: true });

// The same build served under a sub-path, to prove relative asset URLs: /effectively-once/.
// Every worker evaluates this file too, at the same time as the others (.ci/test runs the axe
// matrix with two): the link is made once and left alone while it points at this dist/.
const subRoot = resolve(root, 'target/subpath');
const link = resolve(subRoot, 'effectively-once');
mkdirSync(subRoot, { recursive: true });
if ((() => { try { return readlinkSync(link); } catch { return null; } })() !== dist) {
  rmSync(link, { force: true });
  try {
    symlinkSync(dist, link);
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
  }
}
export const SUB_URL = `http://127.0.0.1:${PORT + 1}/effectively-once/`;

export default defineConfig({
  testDir: './specs',
  testMatch: /.*\.spec\.mjs$/,
  // .ci/test runs the axe matrix on its own with two workers, then the rest with E2E_SKIP set.
  testIgnore: process.env.E2E_SKIP ? new RegExp(process.env.E2E_SKIP) : [],
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1, // 2-core machine
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The offline service worker would sit in front of every request; only specs/offline.spec.mjs
    // (which allows it) tests it, the rest see the network directly.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: [
    {
      command: `python3 -m http.server ${PORT} --bind 127.0.0.1 --directory "${dist}"`,
      url: `http://127.0.0.1:${PORT}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'ignore', // python's access log; failures show up as failed requests in the specs
    },
    {
      command: `python3 -m http.server ${PORT + 1} --bind 127.0.0.1 --directory "${subRoot}"`,
      url: SUB_URL,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'ignore',
    },
  ],
});
