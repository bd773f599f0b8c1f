#!/usr/bin/env bash
# Lighthouse (npm `lighthouse`, Debian Chromium) on a served release build, mobile and desktop
# presets; prints the category scores and the load metrics. Installs lighthouse on first use into
# target/lighthouse (npm registry only). Usage: bash tests/e2e/tools/lighthouse.sh [url]
# Without a url it serves dist/ gzip-compressed as a real host does (tools/serve.mjs, port 8093):
# an uncompressed server makes Lighthouse's slow 4G carry the 896 KB wasm instead of 366 KB.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
url="${1:-}"
if [ -z "$url" ]; then
  node "$root/tests/e2e/tools/serve.mjs" "$root/dist" 8093 >/dev/null &
  server=$!
  trap 'kill $server' EXIT
  sleep 1
  url="http://127.0.0.1:8093/?s=dual-write&v=commit-then-publish&lang=en"
fi
dir="$root/target/lighthouse"
mkdir -p "$dir"
if [ ! -x "$dir/node_modules/.bin/lighthouse" ]; then
  (cd "$dir" && { [ -f package.json ] || npm init -y >/dev/null; } \
    && npm install --no-audit --no-fund --loglevel=error lighthouse@12.8.2)
fi
for preset in mobile desktop; do
  extra=()
  [ "$preset" = desktop ] && extra=(--preset=desktop)
  CHROME_PATH=/usr/bin/chromium "$dir/node_modules/.bin/lighthouse" "$url" "${extra[@]}" \
    --chrome-flags="--headless=new --no-sandbox" --output=json --output-path="$dir/$preset.json" --quiet
  node -e '
    const r = require(process.argv[1]);
    const a = (k) => r.audits[k].displayValue;
    const scores = Object.entries(r.categories).map(([k, v]) => `${k} ${Math.round(v.score * 100)}`).join(", ");
    console.log(`${process.argv[2]}: ${scores}; FCP ${a("first-contentful-paint")}, LCP ${a("largest-contentful-paint")}, TBT ${a("total-blocking-time")}, CLS ${a("cumulative-layout-shift")}, SI ${a("speed-index")}`);
  ' "$dir/$preset.json" "$preset"
done
