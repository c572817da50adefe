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
# What podman printed, without its warnings (without systemd, kube play keeps no healthcheck timers).
podman_said() { grep -v -e 'level=' -e 'failed to connect to syslog' "$1" || true; }

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
# Services are network aliases that aardvark-dns resolves on a netavark network; Debian's podman
# only recommends them, so a podman installed without recommends lacks them.
dns_missing=()
for package in netavark aardvark-dns; do
  grep -q 'ok installed' <<<"$(dpkg-query -W -f '${Status}' "$package" 2>/dev/null)" || dns_missing+=("$package")
done
if ((${#dns_missing[@]})); then
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${dns_missing[@]}"
fi
kubectl_version="$(kubectl version --client -o json 2>/dev/null | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).clientVersion.gitVersion')"
echo "kubectl $kubectl_version, podman $("${podman[@]}" version --format '{{.Client.Version}}')"

echo '---- rendering deploy/kubernetes-ci with kustomize'
# kustomize 5 warns that the overlay's bases and patchesStrategicMerge are deprecated (kept for 2.0).
kubectl kustomize deploy/kubernetes-ci 2> >(grep -v 'is deprecated' >&2) >"$work/rendered.yaml"
check prepare "$work/rendered.yaml" "$work"
for pod in $(plan 'Object.keys(p.deployments).map((d) => d + "-pod").join(" ")'); do
  existing="$("${podman[@]}" pod ps --format '{{.Name}}')"
  if grep -q "^$pod" <<<"$existing"; then fail "pods named $pod* exist already (podman pod rm -f them)"; fi
done
"${podman[@]}" network rm -f "$NETWORK" >/dev/null 2>&1 || true
"${podman[@]}" network create "$NETWORK" >/dev/null
[[ "$("${podman[@]}" network inspect "$NETWORK" --format '{{.DNSEnabled}}')" == true ]] ||
  fail "network $NETWORK resolves no names (podman's network backend: $("${podman[@]}" info --format '{{.Host.NetworkBackend}}')); the pods find the store by its Service name through aardvark-dns on netavark, which podman chooses only while it has no CNI containers (podman system reset)"
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
  "${podman[@]}" kube play --network "${NETWORK}${aliases:+:$aliases}" "$file" >"$work/play-$1.log" 2>&1 ||
    fail "podman kube play of $1: $(podman_said "$work/play-$1.log")"
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
stopping="${pods[1]}-orbit-mcp"
echo "---- 3. ${pods[1]} stopped during a call (SIGTERM, then ${grace} s before SIGKILL)"
# As the kubelet stops a pod: SIGTERM to the container's process, SIGKILL if it still runs after
# the grace period. The signal goes straight to the process (podman's own commands take up to a
# second to start on a busy machine, as long as the call lasts). The call must still be running
# when it arrives: its answer comes after the signal, or the pod is started again and stopped
# during another call.
in_flight=''
for attempt in 1 2 3; do
  server_pid="$("${podman[@]}" inspect --format '{{.State.Pid}}' "$stopping")"
  check call-during "$work/plan.json" orbit-mcp "${ips[1]}" >"$work/during.out" 2>&1 &
  caller=$!
  # The first progress notification (the client starts, connects, calls): up to a minute when busy.
  for _ in $(seq 1 600); do
    grep -q progress "$work/during.out" && break
    kill -0 "$caller" 2>/dev/null || break
    sleep 0.1
  done
  grep -q progress "$work/during.out" || fail "no progress from the call: $(cat "$work/during.out")"
  stop_started=$(date +%s%3N)
  "${sudo[@]}" kill -TERM "$server_pid"
  signalled=$(date +%s%3N)
  timeout "$grace" "${podman[@]}" wait "$stopping" >/dev/null ||
    fail "${pods[1]} still ran ${grace} s after SIGTERM (the kubelet would SIGKILL it now)"
  stopped_ms=$(($(date +%s%3N) - stop_started))
  wait "$caller" || fail "the call in flight at SIGTERM did not finish: $(cat "$work/during.out")"
  exit_code="$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$stopping")"
  [[ $exit_code == 0 ]] || fail "${pods[1]} exited $exit_code after SIGTERM"
  # The whole log first: `logs | grep -q` under pipefail fails on SIGPIPE when grep stops early.
  grep -q 'drained' <<<"$("${podman[@]}" logs "$stopping" 2>&1)" || fail 'no drain in the logs'
  answered_at="$(sed -n 's/^answered-at //p' "$work/during.out")"
  grep -v '^answered-at ' "$work/during.out"
  if ((answered_at > signalled)); then
    in_flight=yes
    echo "${pods[1]}: the call answered $((answered_at - signalled)) ms after SIGTERM; exit 0 in ${stopped_ms} ms (grace ${grace} s)"
    break
  fi
  echo "attempt $attempt: the call ended before SIGTERM reached ${pods[1]}; it is started and stopped again"
  "${podman[@]}" pod start "${pods[1]}" >/dev/null
  ips[1]="$(ip_of "$stopping")"
  check probe "$work/plan.json" orbit-mcp "${ips[1]}" >/dev/null || fail "${pods[1]} did not pass its probes after its restart"
done
[[ -n $in_flight ]] || fail "in 3 attempts no call was still running when SIGTERM reached ${pods[1]}"

echo "---- 4. ${pods[1]} started again: the rest of the budget spent on ${pods[0]}, refused on ${pods[1]}"
"${podman[@]}" pod start "${pods[1]}" >/dev/null
ips[1]="$(ip_of "${pods[1]}-orbit-mcp")"
check probe "$work/plan.json" orbit-mcp "${ips[1]}" || fail "${pods[1]} did not pass its probes after its restart"
check exhaust "$work/plan.json" orbit-mcp "${ips[0]}" "${ips[1]}" || fail 'one budget across the pods'

for file in "${played[@]}"; do
  "${podman[@]}" kube down "$file" >"$work/down.log" 2>&1 || fail "podman kube down $file: $(podman_said "$work/down.log")"
done
played=()
left="$("${podman[@]}" pod ps --format '{{.Name}}' | grep -E "^(orbit-mcp|valkey)-pod" || true)"
[[ -z $left ]] || fail "left after podman kube down: $left"
echo "kubernetes: played, checked and removed in $((SECONDS - started)) s"
