#!/usr/bin/env bash
# Builds the store image CI plays the Kubernetes manifests with (scripts/ci-kube.sh), without any
# container registry: Debian's own Redis (package redis-tools, whose multi-call binary is also
# redis-server) unpacked with its libraries by mmdebstrap --variant=extract into a FROM scratch
# image; no shell, no package manager. It stands in for valkey/valkey, which a real cluster pulls:
# the same protocol, the same uid (999) and data folder (/data), and it takes the same options.
# Usage: bash scripts/redis-image-build.sh [--tag redis-debian:ci]
# Needs root (or sudo), and podman and mmdebstrap (scripts/container-build.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

TAG='redis-debian:ci'
while (($#)); do
  case "$1" in
    --tag) TAG="$2"; shift 2 ;;
    *) echo "unknown option $1 (use --tag NAME:VERSION)" >&2; exit 2 ;;
  esac
done
STORE_UID=999

started=$SECONDS
sudo=()
((EUID == 0)) || sudo=(sudo)
for tool in podman mmdebstrap; do
  command -v "$tool" >/dev/null || {
    echo "$tool is missing: run scripts/container-build.sh first (it installs podman and mmdebstrap)." >&2
    exit 2
  }
done

context="$(mktemp -d)"
trap '"${sudo[@]}" rm -rf "$context"' EXIT
suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
rootfs="$context/rootfs"
"${sudo[@]}" mmdebstrap --quiet --variant=extract --include=redis-tools "$suite" "$rootfs"
# Only the server, the client (for a person's `podman exec ... redis-cli`) and their libraries:
# redis-tools' dependencies bring account tools and debconf, which a store has no use for.
"${sudo[@]}" rm -rf "$rootfs"/usr/share/{doc,man,info,locale,lintian} "$rootfs"/var/{cache,lib/apt,log}/* \
  "$rootfs"/usr/sbin "$rootfs"/sbin
"${sudo[@]}" find "$rootfs/usr/bin" -mindepth 1 ! -name 'redis-*' -delete
"${sudo[@]}" ln -sf redis-check-rdb "$rootfs/usr/bin/redis-server"
"${sudo[@]}" mkdir -p "$rootfs/data" "$rootfs/tmp"
printf 'root:x:0:0:root:/root:/nonexistent\nvalkey:x:%s:%s:store:/data:/nonexistent\n' "$STORE_UID" "$STORE_UID" |
  "${sudo[@]}" tee "$rootfs/etc/passwd" >/dev/null
printf 'root:x:0:\nvalkey:x:%s:\n' "$STORE_UID" | "${sudo[@]}" tee "$rootfs/etc/group" >/dev/null
"${sudo[@]}" chown "$STORE_UID:$STORE_UID" "$rootfs/data"
"${sudo[@]}" chmod 1777 "$rootfs/tmp"
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
