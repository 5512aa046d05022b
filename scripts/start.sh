#!/usr/bin/env bash
# Starts Coperto in embedded mode (the default): gateway and all subgraphs in one process, data in ./.data,
# in-process event bus, memory cache. App on :3000, health on :3001, metrics on :3030.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/bootstrap.sh"
cd "$root"
export APOLLO_TELEMETRY_DISABLED="${APOLLO_TELEMETRY_DISABLED:-1}"
exec pnpm --silent start
