#!/usr/bin/env bash
# What the first load would weigh without ten of the eleven scenarios, and what Leptos alone
# weighs: builds (1) the site's wasm, (2) the same page with only dual-write in the registry,
# (3) a Leptos counter with the same release profile; each through wasm-bindgen and wasm-opt -Oz,
# then gzip -9. Works on copies in target/size-floor; the tree is not touched.
# Usage: bash tests/e2e/tools/size-floor.sh   (after `source .ci/env`; a few minutes)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
work="$root/target/size-floor"
export CARGO_TARGET_DIR="$work/target"
mkdir -p "$work"
leptos=$(sed -n 's/^leptos = \(.*\)$/\1/p' "$root/Cargo.toml")
bindgen=$(sed -n 's/^wasm-bindgen = \(.*\)$/\1/p' "$root/Cargo.toml")

measure() { # name, path to a cargo-built wasm
  local out="$work/out-$1"
  rm -rf "$out" && mkdir -p "$out"
  wasm-bindgen --target web --out-dir "$out" "$2"
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int -o "$out/opt.wasm" "$out"/*_bg.wasm
  printf '%-34s raw %9d  gzip %9d\n' "$1" "$(stat -c %s "$out/opt.wasm")" "$(gzip -9 -c "$out/opt.wasm" | wc -c)"
}

# (1) and (2): the site, then a copy of HEAD with the registry cut to its first entry.
(cd "$root" && cargo build -q --release --target wasm32-unknown-unknown --bin effectively-once)
measure "eleven scenarios (the site)" "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/effectively-once.wasm"
one="$work/one-scenario"
rm -rf "$one" && mkdir -p "$one"
(cd "$root" && git archive HEAD) | tar -x -C "$one"
python3 - "$one/src/scenarios.rs" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
s, n = re.subn(r'static ALL: &\[Registered\] = &\[.*?\];', 'static ALL: &[Registered] = &[&DualWrite];', s, flags=re.S)
assert n == 1, "the registry's shape changed"
open(p, 'w').write(s)
PY
(cd "$one" && cargo build -q --release --target wasm32-unknown-unknown --bin effectively-once)
measure "dual-write only" "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/effectively-once.wasm"

# (3) a Leptos counter: the runtime's floor.
counter="$work/counter"
mkdir -p "$counter/src"
cat > "$counter/Cargo.toml" <<TOML
[package]
name = "counter"
version = "0.1.0"
edition = "2021"
[dependencies]
leptos = $leptos
wasm-bindgen = $bindgen
[profile.release]
opt-level = "z"
lto = true
codegen-units = 1
panic = "abort"
[workspace]
TOML
cat > "$counter/src/main.rs" <<'RS'
use leptos::prelude::*;
fn main() {
    mount_to_body(|| {
        let count = RwSignal::new(0);
        view! {
            <button on:click=move |_| count.update(|c| *c += 1)>"Clicked " {move || count.get()}</button>
            <p class:odd=move || count.get() % 2 == 1>{move || format!("{} times", count.get())}</p>
        }
    })
}
RS
cp "$root/Cargo.lock" "$counter/"
(cd "$counter" && cargo build -q --release --target wasm32-unknown-unknown)
measure "Leptos counter" "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/counter.wasm"
