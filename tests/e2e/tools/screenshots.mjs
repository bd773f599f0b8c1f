// Screenshots of the built site for review and for the README: wide and phone widths, light
// and dark, English and Chinese. Usage: node tools/screenshots.mjs <baseURL> <outDir>
import { chromium } from '@playwright/test';
import { mkdirSync } from 'node:fs';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
const out = process.argv[3] ?? '../../target/screenshots';
mkdirSync(out, { recursive: true });
const flags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: flags });
const shots = [
  { name: 'wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=en' },
  { name: 'wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=dual-write&v=commit-then-publish&p=001&t=9&lang=zh' },
  { name: 'wide-light-outbox', width: 1280, height: 800, scheme: 'light', q: '?s=dual-write&v=outbox&p=00000001&t=12&lang=en' },
  { name: 'phone-light-en', width: 390, height: 844, scheme: 'light', q: '?s=dual-write&v=publish-then-commit&p=002&t=3&lang=en' },
  { name: 'phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?s=dual-write&v=outbox&t=8&lang=zh' },
  { name: 'relay-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=outbox-relay&v=no-dedup&p=00003&t=17&lang=en' },
  { name: 'relay-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=outbox-relay&v=skip-locked&t=13&lang=zh' },
  { name: 'relay-phone-light-en', width: 390, height: 844, scheme: 'light', q: '?s=outbox-relay&v=inbox&p=00003&t=17&lang=en' },
];
for (const s of shots) {
  const page = await browser.newPage({ viewport: { width: s.width, height: s.height }, colorScheme: s.scheme, reducedMotion: 'reduce' });
  page.on('console', (m) => { if (m.type() === 'error') console.log(`[${s.name}] console: ${m.text()}`); });
  await page.goto(base + s.q);
  await page.getByRole('button', { name: /^(Play|播放)$/ }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/${s.name}.png`, fullPage: process.argv[4] === 'full' });
  await page.close();
}
await browser.close();
console.log(`wrote ${shots.length} screenshots to ${out}`);
