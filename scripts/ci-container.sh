#!/usr/bin/env bash
# The container image in CI: builds it (scripts/container-build.sh: no container registry), then
#   1. runs it on the built-in sandbox with a published port: /health, the image's HEALTHCHECK, Node
#      as process 1 under the fixed uid, and one real MCP tools/call over Streamable HTTP;
#   2. sends SIGTERM while a call streams: the call still finishes, the process drains and exits 0
#      within the drain time;
#   3. two replicas on one redis-server (host network): a session opened on one, one call served
#      by each, then both stopped.
# Needs root (or sudo) for podman, the built dist/ (npm run build) and redis-server.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f dist/orbit-mcp.js ]] || { echo 'dist/orbit-mcp.js is missing; run npm run build first.' >&2; exit 2; }
command -v redis-server >/dev/null || { echo 'redis-server is not installed (apt-get install -y redis-server).' >&2; exit 2; }

TAG='orbit-mcp:ci'
DRAIN_MS=5000
sudo=()
((EUID == 0)) || sudo=(sudo)
podman=("${sudo[@]}" podman)

containers=()
redis_pid=''
work="$(mktemp -d)"
cleanup() {
  ((${#containers[@]})) && "${podman[@]}" rm -f "${containers[@]}" >/dev/null 2>&1 || true
  [[ -z $redis_pid ]] || kill "$redis_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "container check failed: $*" >&2
  for name in "${containers[@]}"; do
    echo "---- logs of $name" >&2
    "${podman[@]}" logs "$name" >&2 2>&1 || true
  done
  exit 1
}
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
# /health from this machine, retried while the container starts (no curl needed).
wait_health() {
  node -e '
    const url = process.argv[1];
    const until = Date.now() + 30_000;
    const once = () => fetch(url).then(async (r) => { if (!r.ok) throw new Error(String(r.status)); console.log(`health: ${await r.text()}`); },
      (e) => { if (Date.now() > until) { console.error(`no answer from ${url}: ${e.message}`); process.exit(1); } return new Promise((ok) => setTimeout(ok, 250)).then(once); });
    once();' "$1"
}
check() { npx --no-install tsx scripts/container-check.ts "$@"; }
# podman stores no healthcheck timers without systemd; `healthcheck run` runs the image's check once.
healthcheck() { "${podman[@]}" healthcheck run "$1" 2>&1 | grep -v 'level=' || true; }

build_started=$SECONDS
bash scripts/container-build.sh --tag "$TAG"
echo "build took $((SECONDS - build_started)) s"

echo '---- 1. one container on the sandbox, port published'
port="$(free_port)"
containers+=(orbit-ci-one)
"${podman[@]}" run -d --name orbit-ci-one -e "ORBIT_DRAIN_MS=$DRAIN_MS" -p "127.0.0.1:${port}:8787" "$TAG" \
  --http --host 0.0.0.0 --port 8787 --sandbox --allowed-hosts "127.0.0.1:${port}" 2>&1 | grep -v 'level=' || true
wait_health "http://127.0.0.1:${port}/health" || fail '/health did not answer'
health="$(healthcheck orbit-ci-one)"
[[ -z $health || $health == healthy ]] || fail "the image's HEALTHCHECK says: $health"
[[ "$("${podman[@]}" inspect --format '{{.State.Health.Status}}' orbit-ci-one)" == healthy ]] || fail 'HEALTHCHECK did not report healthy'
host_pid="$("${podman[@]}" inspect --format '{{.State.Pid}}' orbit-ci-one)"
ns_pid="$(awk '/^NSpid:/ { print $NF }' "/proc/$host_pid/status")"
uid="$(awk '/^Uid:/ { print $2 }' "/proc/$host_pid/status")"
[[ $ns_pid == 1 ]] || fail "node is process $ns_pid in the container, not 1"
[[ $uid == 10001 ]] || fail "node runs as uid $uid, not 10001"
echo "node is process 1, uid $uid; healthy"
check call "http://127.0.0.1:${port}/mcp" || fail 'tools/call over HTTP'

echo "---- 2. SIGTERM during a call: drained and exited within ${DRAIN_MS} ms"
check call-during "http://127.0.0.1:${port}/mcp" >"$work/during.out" 2>&1 &
caller=$!
for _ in $(seq 1 200); do grep -q progress "$work/during.out" && break; sleep 0.05; done
grep -q progress "$work/during.out" || fail "no progress from the call: $(cat "$work/during.out")"
stop_started=$(date +%s%N)
"${podman[@]}" kill --signal TERM orbit-ci-one >/dev/null
exit_code="$("${podman[@]}" wait orbit-ci-one)"
stopped_ms=$((($(date +%s%N) - stop_started) / 1000000))
wait "$caller" || fail "the call in flight at SIGTERM did not finish: $(cat "$work/during.out")"
cat "$work/during.out"
[[ $exit_code == 0 ]] || fail "exit code $exit_code after SIGTERM"
((stopped_ms <= DRAIN_MS + 2000)) || fail "took ${stopped_ms} ms to exit (drain ${DRAIN_MS} ms)"
# Read the whole log first: under pipefail, `logs | grep -q` fails when grep stops at the first
# match and podman's next line meets a closed pipe (SIGPIPE), even though the line is there.
grep -q 'drained' <<<"$("${podman[@]}" logs orbit-ci-one 2>&1)" || fail 'no drain in the logs'
echo "exited 0 in ${stopped_ms} ms after SIGTERM, the running call finished"

echo '---- stdio as process 1: SIGTERM ends it (Node ignores signals it does not handle as process 1)'
containers+=(orbit-ci-stdio)
# -i keeps stdin open, as an assistant would: only the signal can end it.
"${podman[@]}" run -d -i --name orbit-ci-stdio "$TAG" --sandbox 2>&1 | grep -v 'level=' || true
sleep 2
[[ "$("${podman[@]}" inspect --format '{{.State.Running}}' orbit-ci-stdio)" == true ]] || fail 'the stdio server did not stay up'
stop_started=$(date +%s%N)
"${podman[@]}" kill --signal TERM orbit-ci-stdio >/dev/null
exit_code="$("${podman[@]}" wait orbit-ci-stdio)"
stopped_ms=$((($(date +%s%N) - stop_started) / 1000000))
[[ $exit_code == 0 ]] || fail "stdio exit code $exit_code after SIGTERM"
((stopped_ms <= 3000)) || fail "stdio took ${stopped_ms} ms to exit after SIGTERM"
echo "stdio exited 0 in ${stopped_ms} ms after SIGTERM"

echo '---- 3. two replicas on one redis-server'
redis_port="$(free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no >"$work/redis.log" 2>&1 &
redis_pid=$!
port_a="$(free_port)"
port_b="$(free_port)"
for replica in a b; do
  replica_port="port_$replica"
  containers+=("orbit-ci-$replica")
  "${podman[@]}" run -d --name "orbit-ci-$replica" --network host -e "ORBIT_STORE_URL=redis://127.0.0.1:${redis_port}" \
    -e "ORBIT_DRAIN_MS=$DRAIN_MS" "$TAG" --http --host 127.0.0.1 --port "${!replica_port}" --sandbox --replica-id "$replica" \
    2>&1 | grep -v 'level=' || true
done
wait_health "http://127.0.0.1:${port_a}/health" || fail 'replica a: /health'
wait_health "http://127.0.0.1:${port_b}/health" || fail 'replica b: /health'
[[ "$(healthcheck orbit-ci-b)" != unhealthy ]] || fail 'replica b: HEALTHCHECK on its own --port'
check across "http://127.0.0.1:${port_a}/mcp" "http://127.0.0.1:${port_b}/mcp" || fail 'one call served by each replica'
for replica in a b; do
  grep -q "\"replica\":\"$replica\".*\"tool\":\"chat\"" <<<"$("${podman[@]}" logs "orbit-ci-$replica" 2>&1)" ||
    fail "replica $replica logged no chat call"
done
for replica in a b; do "${podman[@]}" kill --signal TERM "orbit-ci-$replica" >/dev/null; done
for replica in a b; do
  code="$("${podman[@]}" wait "orbit-ci-$replica")"
  [[ $code == 0 ]] || fail "replica $replica exited $code after SIGTERM"
done
size="$("${podman[@]}" image inspect --format '{{.Size}}' "$TAG")"
echo "container: image $((size / 1000000)) MB, built in $((SECONDS - build_started)) s including the checks"
