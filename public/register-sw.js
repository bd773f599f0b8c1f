// Registers the offline service worker (sw.js, written by the release build's post-build hook,
// tests/e2e/tools/offline.mjs). A development server has none: the registration then fails
// quietly and the app works online as usual.
if ('serviceWorker' in navigator) {
  addEventListener('load', () => {
    navigator.serviceWorker.register('./sw.js').catch(() => {});
  });
}
