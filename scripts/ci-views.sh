#!/usr/bin/env bash
# The MCP Apps views as npm run build made them (their Chromium tests run in npm test): each one
# self-contained (no script, stylesheet, font or image fetched from anywhere) and its size printed.
set -euo pipefail
cd "$(dirname "$0")/.."
for view in gallery player payment usage scores attestation; do
  file="dist/views/$view.html"
  [[ -s $file ]] || { echo "$file is missing: npm run build makes it" >&2; exit 1; }
  if grep -qE '<script[^>]+src=|<link[^>]+href=|@import|url\((https?:)?//' "$file"; then
    echo "$file loads something from outside itself" >&2
    exit 1
  fi
  echo "$view: $(( $(stat -c %s "$file") / 1024 )) KiB"
done
