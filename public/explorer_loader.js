// Starts the explorer's Web Worker (src/bin/explorer.rs). Requests that arrive while the wasm is
// still loading are kept and handed to the Rust handler once it is installed.
const early = [];
self.onmessage = (event) => early.push(event);
importScripts('./explorer.js');
wasm_bindgen({ module_or_path: './explorer_bg.wasm' }).then(() => {
  for (const event of early) self.onmessage(event);
});
