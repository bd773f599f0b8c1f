// The runs the measuring tools share, as (label, query, knob index, a new value for it), and
// the browser they measure in.
import { chromium } from '@playwright/test';

export const refundCap = ['refund-cap, 10 steps', '?s=refund-cap&v=read-then-write&lang=en', 0, '150'];
/** The longest run of the knobs' range: 4 layers × 5 attempts, always timing out. */
export const longest = ['retry-layers, 625 steps', '?s=retry-layers&v=every-layer-retries&layers=4&attempts=5&downstream=always-timeout&lang=en', 5, '7'];

export const launch = () => chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });

/** A new page of `context` with the CPU throttled `rate`×, which records the duration of each
 *  long task (over 50 ms) in `window.__tasks`. */
export async function throttled(context, rate) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.addInitScript(() => {
    window.__tasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
  });
  return page;
}
