// The long soak: `node tools/soak.mjs [baseURL] [minutes=10]` against a served release build.
// Prints wasm memory, JS heap after GC, DOM elements and console errors once a minute.
import { chromium } from '@playwright/test';
import { probe, soak } from '../specs/soak-driver.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
const minutes = Number(process.argv[3] ?? 10);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(String(e)));
await probe(page);
await page.goto(`${base}?s=dual-write&lang=en`);
await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
console.log('| minute | wasm memory | JS heap after GC | DOM elements | console errors |');
console.log('|---:|---:|---:|---:|---:|');
await soak(page, {
  ms: minutes * 60_000,
  everyMs: 60_000,
  onSample: (s, at) => console.log(`| ${Math.round(at / 60_000)} | ${s.wasm.toLocaleString('en-US')} B | ${s.heap.toLocaleString('en-US')} B | ${s.dom} | ${errors.length} |`),
});
if (errors.length) console.log(errors.slice(0, 10).join('\n'));
await browser.close();
