// Autoplay smoothness in Chromium: play at 4× for 30 s (restarting at the end of the run) and
// report the p95 and worst interval between animation frames, the longest task and the main
// thread's busy time per 10 s of playing (DevTools' TaskDuration), with the CPU unthrottled (1×)
// and throttled 4× (DevTools' CPU throttling, as Lighthouse's mobile profile).
//   node tests/e2e/tools/frames.mjs http://127.0.0.1:8081/ [seconds]
import { launch, longest } from './runs.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8081/';
const seconds = Number(process.argv[3] ?? 30);
const cases = [
  ['dual-write, 10 steps', '?s=dual-write&v=commit-then-publish&p=001&lang=en'],
  ['backpressure, 96 steps with curves', '?s=backpressure&v=throttled-channel&lang=en'],
  longest.slice(0, 2),
];
const browser = await launch();
console.log('| run | CPU | frames | p95 frame interval | worst frame interval | longest task | main thread per 10 s | steps played |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [label, query] of cases) {
  for (const rate of [1, 4]) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.goto(base + query);
    await page.locator('.counter').waitFor();
    await page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: '4×' });
    await cdp.send('Performance.enable');
    const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
    const busy0 = await busy();
    const result = await page.evaluate(async (ms) => {
      const frames = [];
      let longest = 0;
      let played = 0;
      const obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
      });
      obs.observe({ type: 'longtask', buffered: false });
      const counter = document.querySelector('.counter');
      const play = () => document.querySelector('button[aria-label="Play"]')?.click();
      const home = () => document.querySelector('button[aria-label="Go to start"]')?.click();
      let last = counter.textContent;
      const t0 = performance.now();
      play();
      await new Promise((done) => {
        const tick = (t) => {
          frames.push(t);
          if (counter.textContent !== last) {
            played++;
            last = counter.textContent;
          }
          // At the end of the run the Play button comes back: start over.
          if (document.querySelector('button[aria-label="Play"]')) {
            home();
            play();
          }
          if (t - t0 < ms) requestAnimationFrame(tick);
          else done();
        };
        requestAnimationFrame(tick);
      });
      obs.disconnect();
      const gaps = frames.slice(1).map((t, i) => t - frames[i]).sort((a, b) => a - b);
      return {
        frames: frames.length,
        p95: gaps[Math.floor(gaps.length * 0.95)] ?? 0,
        worst: gaps[gaps.length - 1] ?? 0,
        longest,
        played,
      };
    }, seconds * 1000);
    // Task time is measured in the throttled clock's seconds: what the page costs the device.
    const per10 = ((await busy()) - busy0) * 10 / seconds;
    console.log(
      `| ${label} | ${rate}× | ${result.frames} | ${result.p95.toFixed(1)} ms | ${result.worst.toFixed(1)} ms | ${result.longest.toFixed(0)} ms | ${per10.toFixed(2)} s | ${result.played} |`,
    );
    await page.close();
  }
}
await browser.close();
