#!/usr/bin/env bash
# `pnpm bench:hive-router`: builds The Guild's Rust federation router (crate hive-router, pinned 0.2.19: 0.3.x
# versions need a newer rustc than 1.95) into .cache/hive-router/, where the bench's scenario 2 looks for it
# (bench/src/hive-router.ts); without it the bench skips that peer. Idempotent. Needs cargo; ≈30 min on 2 cores.
# `--features graphiql` makes the crate's build script skip an npm install of a UI bundle the registry does not
# serve.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=0.2.19
bin="$root/.cache/hive-router/bin/hive_router"
if [ -x "$bin" ] && grep -aq "hive-router-$version/src/" "$bin"; then
  echo "install-hive-router: hive-router $version already in .cache/hive-router/bin"
  exit 0
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "install-hive-router: cargo is not installed (https://rustup.rs); the bench runs without hive-router" >&2
  exit 1
fi
echo "install-hive-router: cargo install hive-router@$version (≈30 min on 2 cores)"
cargo install "hive-router@$version" --locked --features graphiql --root "$root/.cache/hive-router"
