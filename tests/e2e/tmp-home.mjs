import { launch } from './tools/runs.mjs';
const [base, runs = 5] = process.argv.slice(2);
const browser = await launch();
for (const rate of [1, 4]) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.addInitScript(() => {
      window.__tasks = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push(e.duration); })
        .observe({ type: 'longtask', buffered: true });
    });
    await page.goto(base + '?home=1&lang=en');
    await page.locator('.scenario-card').first().waitFor();
    await page.waitForTimeout(2000);
    const t = await page.evaluate(() => window.__tasks);
    const m = await cdp.send('Performance.getMetrics').catch(() => null);
    out.push(`${Math.round(Math.max(0, ...t))}/${Math.round(t.reduce((a, d) => a + Math.max(0, d - 50), 0))}`);
    await context.close();
  }
  console.log(`${rate}x longest/blocking ms:`, out.join(' '));
}
await browser.close();
