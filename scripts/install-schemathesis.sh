#!/usr/bin/env bash
# Installs Schemathesis (PyPI, pinned) into a virtual environment under .cache/, idempotently. The contract test
# (test/contract/, `pnpm test:contract`) runs it against the gateway's /openapi.json (docs/testing.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=4.32.5
venv="$root/.cache/schemathesis"
if [ -x "$venv/bin/st" ] && [ "$(cat "$venv/.version" 2>/dev/null)" = "$version" ]; then exit 0; fi
echo "install-schemathesis: schemathesis $version into .cache/schemathesis"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version"
echo "$version" > "$venv/.version"
