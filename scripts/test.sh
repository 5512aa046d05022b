#!/usr/bin/env bash
# The whole test suite, from a brand-new machine: pnpm and the workspace, the real test servers
# (mongo-java-server, nats-server, redis-server), supergraph composition check, generated-types check, typecheck,
# format check, lint (architecture rules and declared dependencies: eslint.config.js, knip.jsonc), then every
# vitest project (unit, integration, e2e). `.ci/run` runs exactly this.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
started=$(date +%s)
bash "$root/scripts/bootstrap.sh"
bash "$root/scripts/install-test-servers.sh"
bash "$root/scripts/install-schemathesis.sh"
cd "$root"
export APOLLO_TELEMETRY_DISABLED=1
echo "== supergraph composition"
pnpm --silent supergraph:check
# typecheck first checks the generated types (pnpm codegen:check), which validates the REST operations.
echo "== generated types and typecheck"
pnpm --silent typecheck
echo "== format"
pnpm --silent check:format
echo "== lint"
pnpm --silent lint
echo "== tests"
pnpm --silent test
echo "test.sh: done in $(( $(date +%s) - started )) s"
