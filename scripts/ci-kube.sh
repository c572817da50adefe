#!/usr/bin/env bash
# The Kubernetes manifests in CI: deploy/kubernetes through the CI overlay deploy/kubernetes-ci
# (rendered by kustomize, as `kubectl apply -k` would), played for real with `podman kube play` on
# the images built here without a registry (orbit-mcp:ci by scripts/container-build.sh, and a
# Redis image from Debian's package standing in for valkey/valkey), on a network of their own:
#   1. the store's pod passes its probes; then the Deployment of orbit-mcp starts its 2 pods, each
#      passes its readiness and liveness probes, runs as uid 10001 with no capabilities on a
#      read-only root with writable emptyDirs, and answers a real MCP call through the Service;
#   2. a session opened on one pod continues on the other, and one key's spend on one pod is what
#      the other counts (sessions and budgets shared through the store);
#   3. a pod is stopped as the kubelet stops it while a call runs: the call finishes, the server
#      exits 0 within terminationGracePeriodSeconds;
#   4. that pod started again passes its probes; the rest of the key's budget is spent on the other,
#      and the restarted one refuses the next paid call (its new process reads the spend from the
#      store); then `podman kube down` removes everything.
# What podman does differently from a cluster, and how it is made up for, is printed by
# scripts/kube-check.ts prepare. Needs root (or sudo), the built dist/ (npm run build), podman.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f dist/orbit-mcp.js ]] || { echo 'dist/orbit-mcp.js is missing; run npm run build first.' >&2; exit 2; }

ORBIT_TAG='orbit-mcp:ci'
STORE_TAG='redis-debian:ci'
NETWORK='orbit-kube-ci'
sudo=()
((EUID == 0)) || sudo=(sudo)
podman=("${sudo[@]}" podman)
started=$SECONDS

work="$(mktemp -d)"
played=()
secrets=()
cleanup() {
  for file in "${played[@]}"; do "${podman[@]}" kube down "$file" >/dev/null 2>&1 || true; done
  for name in "${secrets[@]}"; do "${podman[@]}" secret rm "$name" >/dev/null 2>&1 || true; done
  "${podman[@]}" network rm -f "$NETWORK" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
pods_of() { # the pods of a Deployment, by its selector labels
  local filters=()
  while read -r label; do filters+=(--filter "label=$label"); done < <(
    node -e 'const p = require(process.argv[1]); for (const [k, v] of Object.entries(p.deployments[process.argv[2]].labels)) console.log(`${k}=${v}`)' "$work/plan.json" "$1"
  )
  "${podman[@]}" pod ps "${filters[@]}" --format '{{.Name}}' | sort
}
fail() {
  echo "kubernetes check failed: $*" >&2
  for pod in $("${podman[@]}" pod ps --filter label=app.kubernetes.io/part-of=orbit-mcp --format '{{.Name}}' 2>/dev/null); do
    for container in $("${podman[@]}" ps -a --filter "pod=$pod" --format '{{.Names}}' | grep -v -- '-infra$'); do
      echo "---- logs of $container" >&2
      "${podman[@]}" logs "$container" >&2 2>&1 || true
    done
  done
  exit 1
}
plan() { node -p "const p = require('$work/plan.json'); $1"; }
check() { node_modules/.bin/tsx scripts/kube-check.ts "$@"; }
ip_of() { "${podman[@]}" inspect "$1" --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}'; }
# podman kube play warns on stderr that, without systemd, it keeps no healthcheck timers.
quiet() { "$@" 2>&1 | grep -v -e 'level=' -e 'failed to connect to syslog' || true; }

# 1. Tools and images. kustomize comes with kubectl (Debian's kubernetes-client where none is installed).
if ! command -v kubectl >/dev/null; then
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends kubernetes-client
fi
# The image ci-container.sh built just before; built here when missing (that installs podman too).
if ! command -v podman >/dev/null || ! "${podman[@]}" image exists "$ORBIT_TAG"; then
  bash scripts/container-build.sh --tag "$ORBIT_TAG"
fi
"${podman[@]}" image exists "$STORE_TAG" || bash scripts/redis-image-build.sh --tag "$STORE_TAG"
kubectl_version="$(kubectl version --client -o json 2>/dev/null | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).clientVersion.gitVersion')"
echo "kubectl $kubectl_version, podman $("${podman[@]}" version --format '{{.Client.Version}}')"

echo '---- rendering deploy/kubernetes-ci with kustomize'
# kustomize 5 warns that the overlay's bases and patchesStrategicMerge are deprecated (kept for 2.0).
kubectl kustomize deploy/kubernetes-ci 2> >(grep -v 'is deprecated' >&2) >"$work/rendered.yaml"
check prepare "$work/rendered.yaml" "$work"
for pod in $(plan 'Object.keys(p.deployments).map((d) => d + "-pod").join(" ")'); do
  ! "${podman[@]}" pod ps --format '{{.Name}}' | grep -q "^$pod" || fail "pods named $pod* exist already (podman pod rm -f them)"
done
"${podman[@]}" network rm -f "$NETWORK" >/dev/null 2>&1 || true
"${podman[@]}" network create "$NETWORK" >/dev/null
for name in $(plan 'p.secrets.map((s) => s.name).join(" ")'); do
  "${podman[@]}" secret rm "$name" >/dev/null 2>&1 || true
  "${podman[@]}" secret create "$name" "$work/secret-$name.json" >/dev/null
  secrets+=("$name")
done
play() { # a Deployment, its pods named on the network as the Services that select them
  local file aliases
  file="$(plan "p.deployments['$1'].file")"
  aliases="$(plan "p.deployments['$1'].aliases.map((a) => 'alias=' + a).join(',')")"
  played+=("$file")
  quiet "${podman[@]}" kube play --network "${NETWORK}${aliases:+:$aliases}" "$file" >/dev/null
}

echo '---- 1. the store, then the Deployment of orbit-mcp'
play valkey
store_pod="$(pods_of valkey)"
[[ -n $store_pod ]] || fail 'the valkey Deployment started no pod'
check probe "$work/plan.json" valkey "$(ip_of "$store_pod-valkey")" || fail 'the store did not pass its probes'
play_started=$SECONDS
play orbit-mcp
mapfile -t pods < <(pods_of orbit-mcp)
replicas="$(plan "p.deployments['orbit-mcp'].replicas")"
((${#pods[@]} == replicas)) ||
  fail "podman started ${#pods[@]} pod(s) of the orbit-mcp Deployment, not its $replicas replicas (podman 4.3 starts one per replica)"
ips=()
for pod in "${pods[@]}"; do
  container="$pod-orbit-mcp"
  ip="$(ip_of "$container")"
  ips+=("$ip")
  check probe "$work/plan.json" orbit-mcp "$ip" || fail "$pod did not pass its probes"
  # The pod's securityContext, as the server process has it: uid, capabilities, a read-only root.
  host_pid="$("${podman[@]}" inspect --format '{{.State.Pid}}' "$container")"
  uid="$(awk '/^Uid:/ { print $2 }' "/proc/$host_pid/status")"
  caps="$(awk '/^CapEff:/ { print $2 }' "/proc/$host_pid/status")"
  [[ $uid == 10001 ]] || fail "$pod: the server runs as uid $uid, not 10001"
  [[ $caps == 0000000000000000 ]] || fail "$pod: the server keeps capabilities $caps"
  writes="$("${podman[@]}" exec "$container" /usr/local/bin/node -e '
    const fs = require("fs");
    const tryWrite = (path) => { try { fs.writeFileSync(path, "x"); fs.rmSync(path); return "writable"; } catch (e) { return e.code; } };
    console.log(["/app/probe", "/home/orbit/probe", "/tmp/probe"].map(tryWrite).join(" "));')"
  [[ $writes == 'EROFS writable writable' ]] ||
    fail "$pod: /app, /home/orbit, /tmp should be read-only, writable, writable; they are $writes"
  echo "$pod $ip: uid $uid, no capabilities, root read-only, /home/orbit and /tmp writable"
done
echo "orbit-mcp: ${#pods[@]} pods ready in $((SECONDS - play_started)) s"
check call "$work/plan.json" orbit-mcp "${ips[0]}" || fail 'a tools/call through the Service'

echo '---- 2. sessions and budgets shared through the store'
check across "$work/plan.json" orbit-mcp "${ips[0]}" "${ips[1]}" || fail 'sessions and budgets across the pods'

grace="$(plan "p.deployments['orbit-mcp'].graceSeconds")"
echo "---- 3. ${pods[1]} stopped during a call (SIGTERM, then ${grace} s before SIGKILL)"
check call-during "$work/plan.json" orbit-mcp "${ips[1]}" >"$work/during.out" 2>&1 &
caller=$!
for _ in $(seq 1 200); do grep -q progress "$work/during.out" && break; sleep 0.05; done
grep -q progress "$work/during.out" || fail "no progress from the call: $(cat "$work/during.out")"
stop_started=$(date +%s%N)
"${podman[@]}" pod stop --time "$grace" "${pods[1]}" >/dev/null
stopped_ms=$((($(date +%s%N) - stop_started) / 1000000))
wait "$caller" || fail "the call in flight at SIGTERM did not finish: $(cat "$work/during.out")"
cat "$work/during.out"
exit_code="$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "${pods[1]}-orbit-mcp")"
[[ $exit_code == 0 ]] || fail "${pods[1]} exited $exit_code after SIGTERM"
((stopped_ms < grace * 1000)) || fail "${pods[1]} took ${stopped_ms} ms to stop (grace ${grace} s)"
"${podman[@]}" logs "${pods[1]}-orbit-mcp" 2>&1 | grep -q 'drained' || fail 'no drain in the logs'
echo "${pods[1]}: the running call finished, exit 0 in ${stopped_ms} ms (grace ${grace} s)"

echo "---- 4. ${pods[1]} started again: the rest of the budget spent on ${pods[0]}, refused on ${pods[1]}"
"${podman[@]}" pod start "${pods[1]}" >/dev/null
ips[1]="$(ip_of "${pods[1]}-orbit-mcp")"
check probe "$work/plan.json" orbit-mcp "${ips[1]}" || fail "${pods[1]} did not pass its probes after its restart"
check exhaust "$work/plan.json" orbit-mcp "${ips[0]}" "${ips[1]}" || fail 'one budget across the pods'

for file in "${played[@]}"; do quiet "${podman[@]}" kube down "$file" >/dev/null; done
played=()
left="$("${podman[@]}" pod ps --format '{{.Name}}' | grep -E "^(orbit-mcp|valkey)-pod" || true)"
[[ -z $left ]] || fail "left after podman kube down: $left"
echo "kubernetes: played, checked and removed in $((SECONDS - started)) s"
