#!/usr/bin/env bash
# Gets the pinned pnpm (the machine has only Node and npm) and installs the workspace from the lockfile.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pnpm_version=$(node -p "require('$root/package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "bootstrap: installing pnpm $pnpm_version with npm"
  npm install --global --silent "pnpm@$pnpm_version" >/dev/null
fi
cd "$root"
pnpm install --frozen-lockfile --reporter=silent
