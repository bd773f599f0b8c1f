// Screenshots of the built site for review and for the README: wide and phone widths, light
// and dark, English and Chinese. Usage: node tools/screenshots.mjs <baseURL> <outDir> [full] [name filter]
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
  { name: 'relay-phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?s=outbox-relay&v=skip-locked&t=13&lang=zh' },
  { name: 'compare-wide-dark-en', width: 1280, height: 800, scheme: 'dark', q: '?s=outbox-relay&v=no-dedup&p=00003&t=17&cmp=inbox&lang=en', scroll: '.compare' },
  { name: 'compare-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=outbox-relay&v=no-dedup&p=00003&t=17&cmp=inbox&lang=zh', scroll: '.compare' },
  { name: 'break-wide-light-zh', width: 1280, height: 800, scheme: 'light', q: '?s=outbox-relay&v=two-relays&t=4&mode=break&lang=zh', wait: 1500 },
  { name: 'break-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=dual-write&v=commit-then-publish&mode=break&lang=en', wait: 1500 },
  { name: 'explorer-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=dual-write&v=commit-then-publish&lang=en', explore: true },
  { name: 'cap-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=refund-cap&v=read-then-write&t=8&lang=en', full: true },
  { name: 'cap-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=refund-cap&v=select-for-update&t=9&lang=zh', full: true },
  { name: 'cap-phone-light-en', width: 390, height: 844, scheme: 'light', q: '?s=refund-cap&v=semaphore-2&t=6&cap=150&lang=en', full: true },
  { name: 'cap-phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?s=refund-cap&v=conditional-update&t=4&lang=zh', full: true },
  { name: 'cap-break-wide-dark-en', width: 1280, height: 800, scheme: 'dark', q: '?s=refund-cap&v=mutex-two-instances&mode=break&lang=en', wait: 1500 },
  { name: 'cap-compare-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=refund-cap&v=read-then-write&t=8&cmp=conditional-update&lang=zh', scroll: '.compare' },
  { name: 'retry-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=retry-layers&v=every-layer-retries&t=27&lang=en', full: true },
  { name: 'retry-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=retry-layers&v=idempotency-key&t=14&lang=zh', full: true },
  { name: 'retry-phone-light-en', width: 390, height: 844, scheme: 'light', q: '?s=retry-layers&v=both-fixes&lang=en', full: true },
  { name: 'retry-phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?s=retry-layers&v=temporal-defaults&t=12&lang=zh', full: true },
  { name: 'unknown-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=unknown-outcome&v=mark-failed-new-key&p=0001&t=12&lang=en', full: true },
  { name: 'unknown-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=unknown-outcome&v=unknown-same-key&p=00001&t=6&lang=zh', full: true },
  { name: 'unknown-expired-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=unknown-outcome&v=key-expired&p=00010000&t=8&lang=en', full: true },
  { name: 'unknown-review-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=unknown-outcome&v=reconcile-first&p=0001003&t=7&lang=zh', full: true },
  { name: 'unknown-review-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=unknown-outcome&v=reconcile-first&p=0001003&t=7&lang=en', full: true },
  { name: 'unknown-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=unknown-outcome&v=check-then-insert&t=4&lang=zh', full: true },
  { name: 'backpressure-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=backpressure&v=unbounded-queue&t=20&lang=en', full: true },
  { name: 'backpressure-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=backpressure&v=admission-control&p=0001&t=16&lang=zh', full: true },
  { name: 'backpressure-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=backpressure&v=throttled-channel&t=30&lang=zh', full: true },
  { name: 'backpressure-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=backpressure&v=paced-to-channel&t=12&lang=en', full: true },
  { name: 'checkpoint-wide-dark-en', width: 1280, height: 800, scheme: 'dark', q: '?s=checkpoint-replay&v=rerun-node&p=0001&t=8&lang=en', full: true },
  { name: 'checkpoint-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=checkpoint-replay&v=operation-id&p=0001&t=6&lang=en', full: true },
  { name: 'checkpoint-wide-light-zh', width: 1280, height: 800, scheme: 'light', q: '?s=checkpoint-replay&v=in-memory-saver&p=0001&t=5&lang=zh', full: true },
  { name: 'duplicate-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=duplicate-charge&v=new-charge-per-delivery&p=000002&t=10&lang=en', full: true },
  { name: 'duplicate-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=duplicate-charge&v=message-id-dedup&p=01&t=10&lang=zh', full: true },
  { name: 'duplicate-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=duplicate-charge&v=new-charge-per-delivery&p=000002&t=10&lang=zh', full: true },
  { name: 'duplicate-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=duplicate-charge&v=stable-intent&p=000002&t=9&lang=en', full: true },
  { name: 'cancel-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=cancellation&v=cancel-means-undone&p=0000001&t=8&lang=en', full: true },
  { name: 'cancel-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=cancellation&v=cancel-means-undone&p=0000001&t=8&lang=zh', full: true },
  { name: 'cancel-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=cancellation&v=cancel-then-reconcile&p=0000001&t=12&lang=zh', full: true },
  { name: 'cancel-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=cancellation&v=cancel-then-reconcile&p=0000001&t=9&lang=en', full: true },
  { name: 'approval-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=approval&v=approve-chat-text&p=002&t=4&lang=en', full: true },
  { name: 'approval-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=approval&v=approve-versioned-proposal&p=003&t=4&lang=zh', full: true },
  { name: 'approval-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=approval&v=approve-chat-text&p=0000&t=5&lang=en', full: true },
  { name: 'approval-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=approval&v=approve-chat-text&p=003&t=4&lang=zh', full: true },
  { name: 'semaphore-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=semaphore-scope&v=per-instance-semaphore&t=6&lang=en', full: true },
  { name: 'semaphore-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=semaphore-scope&v=shared-counter&p=021&t=5&lang=zh', full: true },
  { name: 'semaphore-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=semaphore-scope&v=per-instance-semaphore&t=6&lang=zh', full: true },
  { name: 'semaphore-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=semaphore-scope&v=leases&p=021&t=5&lang=en', full: true },
  { name: 'dead-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=dead-letter&v=retry-forever&t=7&lang=en', full: true },
  { name: 'dead-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=dead-letter&v=blind-replay&p=000100&t=6&lang=zh', full: true },
  { name: 'dead-phone-light-en', width: 390, height: 844, scheme: 'light', q: '?s=dead-letter&v=checked-replay&p=000100&t=6&lang=en', full: true },
  { name: 'dead-phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?s=dead-letter&v=dead-letter&p=111&t=5&lang=zh', full: true },
  { name: 'order-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=order-api&v=sync-wait&t=9&lang=en', full: true },
  { name: 'order-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=order-api&v=no-request-key&p=100&t=3&lang=zh', full: true },
  { name: 'order-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=order-api&v=accept-202&p=100&t=3&lang=zh', full: true },
  { name: 'order-phone-dark-en', width: 390, height: 844, scheme: 'dark', q: '?s=order-api&v=accept-202&p=002&t=4&lang=en', full: true },
  { name: 'lease-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=lease-fencing&v=no-fencing&p=0100011&t=9&lang=en', full: true },
  { name: 'lease-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=lease-fencing&v=fenced&p=0100011&t=9&lang=zh', full: true },
  { name: 'lease-phone-light-en', width: 390, height: 844, scheme: 'light', q: '?s=lease-fencing&v=fenced-with-key&p=0100011&t=9&lang=en', full: true },
  { name: 'events-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=event-order&v=version-guard&p=200&t=3&lang=en', full: true },
  { name: 'events-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=event-order&v=last-write-wins&p=10&t=2&lang=zh', full: true },
  { name: 'events-phone-light-en', width: 390, height: 844, scheme: 'light', q: '?s=event-order&v=state-machine&p=200&t=3&lang=en', full: true },
  { name: 'embed-phone-light-en', width: 360, height: 720, scheme: 'light', q: '?s=refund-cap&v=read-then-write&t=8&lang=en&embed=1' },
  { name: 'embed-notice-640-dark-zh', width: 640, height: 400, scheme: 'dark', q: '?s=dual-write&v=nope&t=99&lang=zh&embed=1&theme=dark' },
  { name: 'embed-dialog-wide-dark-zh', width: 1280, height: 800, scheme: 'dark', q: '?s=outbox-relay&v=inbox&t=5&lang=zh', click: '[data-cmd=embed]' },
  { name: 'present-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?s=dual-write&v=commit-then-publish&p=001&t=8&lang=en', click: '[data-cmd=present]', keys: ['n', 'PageDown'] },
  { name: 'present-720-light-en', width: 1280, height: 720, scheme: 'light', q: '?s=refund-cap&v=read-then-write&t=7&lang=en', click: '[data-cmd=present]', keys: ['PageDown'] },
  { name: 'present-720-dark-zh', width: 1280, height: 720, scheme: 'dark', q: '?s=retry-layers&v=every-layer-retries&t=9&lang=zh', click: '[data-cmd=present]' },
  { name: 'home-wide-light-en', width: 1280, height: 800, scheme: 'light', q: '?home=1&lang=en', home: true, full: true },
  { name: 'home-phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?home=1&lang=zh', home: true },
  { name: 'present-720-expired-light-en', width: 1280, height: 720, scheme: 'light', q: '?s=unknown-outcome&v=key-expired&p=00010000&t=8&lang=en', click: '[data-cmd=present]' },
  { name: 'present-720-review-dark-zh', width: 1280, height: 720, scheme: 'dark', q: '?s=unknown-outcome&v=reconcile-first&p=0001003&t=7&lang=zh', click: '[data-cmd=present]' },
  { name: 'present-phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?s=unknown-outcome&v=mark-failed-new-key&p=00002&t=5&lang=zh', click: '[data-cmd=present]', keys: ['PageDown'] },
  { name: 'export-wide-dark-en', width: 1280, height: 800, scheme: 'dark', q: '?s=retry-layers&t=5&lang=en', click: '[data-cmd=export-open]' },
  { name: 'export-phone-light-zh', width: 390, height: 844, scheme: 'light', q: '?s=refund-cap&t=5&lang=zh', click: '[data-cmd=export-open]' },
  { name: 'explorer-phone-dark-zh', width: 390, height: 844, scheme: 'dark', q: '?s=outbox-relay&v=no-dedup&lang=zh', explore: true },
];
// Optional 5th argument: only the shots whose name contains it.
for (const s of shots.filter((x) => x.name.includes(process.argv[5] ?? ''))) {
  const page = await browser.newPage({ viewport: { width: s.width, height: s.height }, colorScheme: s.scheme, reducedMotion: 'reduce' });
  page.on('console', (m) => { if (m.type() === 'error') console.log(`[${s.name}] console: ${m.text()}`); });
  await page.goto(base + s.q);
  if (s.home) {
    // Each card's picture arrives as it nears the viewport: scroll past them all first.
    await page.locator('.scenario-card').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => [...document.querySelectorAll('.scenario-card svg.thumb')].every((t) => t.childElementCount));
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  else await page.getByRole('button', { name: /^(Play|播放)$/ }).waitFor();
  if (s.explore) {
    await page.locator('[data-cmd=explore-run]').click();
    await page.locator('.exp-totals').first().waitFor();
    await page.locator('[data-cmd=explore-fix]').click();
    await page.locator('.exp-compare').waitFor();
    await page.locator('.explorer').scrollIntoViewIfNeeded();
  }
  if (s.click) {
    // On a phone the header's actions are behind "⋯".
    if (!(await page.locator(s.click).isVisible())) await page.locator('[data-cmd=more-toggle]').click();
    await page.locator(s.click).click();
  }
  for (const k of s.keys ?? []) await page.keyboard.press(k);
  if (s.scroll) await page.locator(s.scroll).scrollIntoViewIfNeeded();
  await page.waitForTimeout(s.wait ?? 300);
  // A link the scenarios have outgrown opens with a notice: say so rather than shoot it.
  const notice = s.name.includes('notice') ? [] : await page.locator('.notice').allTextContents();
  if (notice.length) { console.log(`[${s.name}] stale link: ${notice.join(' ')}`); process.exitCode = 1; }
  await page.screenshot({ path: `${out}/${s.name}.png`, fullPage: s.full || process.argv[4] === 'full' });
  await page.close();
}
// A note-taker's page: the two embed sizes in a plain light (or dark) notes page.
for (const scheme of ['light', 'dark']) {
  if (!'notes'.includes(process.argv[5] ?? '')) break;
  const page = await browser.newPage({ viewport: { width: 1060, height: 720 }, colorScheme: scheme, reducedMotion: 'reduce' });
  const src = (q) => new URL(q, base).href;
  const bg = scheme === 'light' ? '#fff' : '#111';
  const theme = scheme === 'light' ? '' : '&theme=dark';
  await page.setContent(`<!doctype html><body style="margin:16px;background:${bg};color:#888;font-family:sans-serif"><p>My notes, in ${scheme}</p>
    <iframe title="a" width="640" height="400" style="border:1px solid #ccc" src="${src(`?s=refund-cap&v=read-then-write&t=8&lang=en&embed=1${theme}`)}"></iframe>
    <iframe title="b" width="360" height="640" style="border:1px solid #ccc" src="${src(`?s=dual-write&v=commit-then-publish&p=001&t=9&lang=zh&embed=1${theme}`)}"></iframe></body>`);
  await page.frameLocator('iframe[title=a]').locator('.counter').waitFor();
  await page.frameLocator('iframe[title=b]').locator('.counter').waitFor();
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/notes-embeds-${scheme}.png` });
  await page.close();
}
await browser.close();
console.log(`wrote ${shots.length} screenshots to ${out}`);
