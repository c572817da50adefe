#!/usr/bin/env bash
# MCP conformance suite against the built server (see scripts/ci-conformance.ts). Needs `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec npx --no-install tsx scripts/ci-conformance.ts "$@"
