#!/usr/bin/env bash
# The MCP Inspector CLI (@modelcontextprotocol/inspector 1.0.3) against the built server over stdio
# on the sandbox: lists the tools and calls `chat`, then checks what it printed. Needs `npm run build`.
# The Inspector declares node >=22.7.5, but its CLI mode runs on Node 20; this script proves it.
# It is fetched with npx for this check only (pinned), not a devDependency: a declared engine of
# node >=22 would make every `npm ci` on Node 20 print EBADENGINE warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f dist/orbit-mcp.js ]] || { echo "dist/orbit-mcp.js is missing; run npm run build first." >&2; exit 2; }

INSPECTOR='@modelcontextprotocol/inspector@1.0.3'
# npm runs on Node 20 here, so it would warn about the declared engine this script proves harmless.
with_inspector=(npx --yes --loglevel=error --package "$INSPECTOR" --)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
echo "inspector: fetching $INSPECTOR"
"${with_inspector[@]}" true
inspect() {
  # Bounded: a hung server must fail the run, not stall it.
  timeout 120 "${with_inspector[@]}" mcp-inspector --cli node dist/orbit-mcp.js --sandbox "$@"
}

echo "inspector: tools/list"
inspect --method tools/list >"$out/list.json"
echo "inspector: tools/call chat"
inspect --method tools/call --tool-name chat \
  --tool-arg model=openai/gpt-sandbox --tool-arg 'prompt=Say hello in five words.' >"$out/chat.json"

node - "$out/list.json" "$out/chat.json" <<'JS'
const { readFileSync } = require('node:fs');
const [listPath, chatPath] = process.argv.slice(2);
const fail = (message) => {
  console.error(`inspector check failed: ${message}`);
  process.exit(1);
};
const list = JSON.parse(readFileSync(listPath, 'utf8'));
const names = (list.tools ?? []).map((tool) => tool.name);
for (const wanted of ['models_list', 'chat', 'web_search']) {
  if (!names.includes(wanted)) fail(`tools/list lacks ${wanted}; got ${names.join(', ')}`);
}
console.log(`tools/list: ${names.length} tools (${names.join(', ')})`);
const chat = JSON.parse(readFileSync(chatPath, 'utf8'));
const text = chat.content?.find((item) => item.type === 'text')?.text ?? '';
if (chat.isError) fail(`chat returned an error: ${text}`);
if (!chat.structuredContent?.text) fail(`chat has no structuredContent.text: ${JSON.stringify(chat)}`);
if (!text.includes(chat.structuredContent.text)) fail('chat text content does not carry the answer');
console.log(`chat: ${JSON.stringify(chat.structuredContent.text.slice(0, 80))}… (request ${chat.structuredContent.request_id})`);
JS
echo "inspector: ok"
