#!/usr/bin/env bash
# `pnpm bench`: installs what the benchmarks need (the workspace, the test servers, bench/'s own dependencies),
# then runs every scenario (bench/src/main.ts) and writes bench/RESULTS.md. Tunables: see bench/README.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/bootstrap.sh
bash scripts/install-test-servers.sh
# bench/ is not a workspace member: its heavy dependencies (Hive Gateway, autocannon) have their own lockfile.
pnpm install --ignore-workspace --dir bench --frozen-lockfile --reporter=silent

# The services run compiled, as in production (scripts/build.ts).
pnpm --silent build
exec node --import tsx bench/src/main.ts
