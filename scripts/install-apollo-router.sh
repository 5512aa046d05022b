#!/usr/bin/env bash
# `pnpm bench:apollo-router`: builds Apollo Router (crate apollo-router, pinned 2.17.0) into .cache/apollo-router/,
# the fourth peer of scenario 2 of the bench (bench/src/apollo-router.ts starts it on the committed supergraph,
# without a GraphOS key or license). Idempotent. Needs cargo and protoc
# (Debian: apt-get install protobuf-compiler); ≈36 min on 2 cores, most of it shared with other work. The
# compiled crates stay in .cache/apollo-router-target, so an interrupted build resumes where it stopped.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=2.17.0
bin="$root/.cache/apollo-router/bin/router"
if [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null)" = "$version" ]; then
  echo "install-apollo-router: apollo-router $version already in .cache/apollo-router/bin"
  exit 0
fi
for tool in cargo protoc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "install-apollo-router: $tool is not installed; the bench runs without Apollo Router" >&2
    exit 1
  fi
done
echo "install-apollo-router: cargo install apollo-router@$version (≈36 min on 2 cores)"
CARGO_TARGET_DIR="$root/.cache/apollo-router-target" \
  cargo install "apollo-router@$version" --locked --root "$root/.cache/apollo-router"
