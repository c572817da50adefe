#!/usr/bin/env bash
# Builds the store image CI plays the Kubernetes manifests with (scripts/ci-kube.sh), without any
# container registry: Debian's own Redis (package redis-tools, whose multi-call binary is also
# redis-server) unpacked with its libraries by mmdebstrap --variant=extract into a FROM scratch
# image; no shell, no package manager. It stands in for valkey/valkey, which a real cluster pulls:
# the same protocol, the same uid (999) and data folder (/data), and it takes the same options.
# Usage: bash scripts/redis-image-build.sh [--tag redis-debian:ci]
# Needs root (or sudo); installs podman and mmdebstrap from Debian when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/image-build.sh
image_tag 'redis-debian:ci' "$@"
STORE_UID=999

started=$SECONDS
podman_ready

context="$(mktemp -d)"
trap '"${sudo[@]}" rm -rf "$context"' EXIT
rootfs="$context/rootfs"
debian_rootfs "$rootfs" redis-tools
# Only the server, the client (for a person's `podman exec ... redis-cli`) and their libraries:
# redis-tools' dependencies bring account tools and debconf, which a store has no use for.
"${sudo[@]}" rm -rf "$rootfs"/usr/sbin "$rootfs"/sbin
"${sudo[@]}" find "$rootfs/usr/bin" -mindepth 1 ! -name 'redis-*' -delete
"${sudo[@]}" ln -sf redis-check-rdb "$rootfs/usr/bin/redis-server"
image_user "$rootfs" valkey "$STORE_UID" /data
"${sudo[@]}" tar --numeric-owner -C "$rootfs" -cf "$context/rootfs.tar" .
"${sudo[@]}" rm -rf "$rootfs"

# Options come as arguments, as valkey/valkey's entry point takes them (`--requirepass ...`).
cat >"$context/Containerfile" <<EOF
FROM scratch
ADD rootfs.tar /
USER $STORE_UID:$STORE_UID
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["/usr/bin/redis-server"]
CMD ["--save", "", "--appendonly", "no"]
EOF
version="$("${sudo[@]}" podman run --rm --entrypoint /usr/bin/redis-cli "$(
  "${sudo[@]}" podman build --quiet --format docker --pull=never --tag "$TAG" "$context"
)" --version)"
size="$("${sudo[@]}" podman image inspect --format '{{.Size}}' "$TAG")"
echo "image $TAG: $version, $((size / 1000000)) MB, built in $((SECONDS - started)) s"
