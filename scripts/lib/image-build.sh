# Shared by the scripts that build images on this machine without any container registry
# (scripts/container-build.sh: orbit-mcp; scripts/redis-image-build.sh: the store CI plays the
# Kubernetes manifests with). Sourced, not run; the caller has `set -euo pipefail`.

sudo=()
((EUID == 0)) || sudo=(sudo)

# The --tag option: TAG is the default given first, or the one named.
image_tag() {
  TAG="$1"
  shift
  while (($#)); do
    case "$1" in
      --tag) TAG="$2"; shift 2 ;;
      *) echo "unknown option $1 (use --tag NAME:VERSION)" >&2; exit 2 ;;
    esac
  done
}

# podman and what it needs, from Debian when missing, and containers.conf for this kind of machine.
podman_ready() {
  local missing=() tool hard_nofile hard_nproc pid_max conf marker wanted
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

  # containers.conf for this kind of machine: runc (crun refuses the mixed cgroup mode here) and
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
}

# debian_rootfs DIR PACKAGES: Debian's packages (comma-separated, with their dependencies) for this
# machine's release, unpacked into DIR (mmdebstrap --variant=extract: nothing installed, no shell
# unless a package brings one), without documentation, locales or package-manager state.
debian_rootfs() {
  local suite
  suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
  "${sudo[@]}" mmdebstrap --quiet --variant=extract --include="$2" "$suite" "$1"
  "${sudo[@]}" rm -rf "$1"/usr/share/{doc,man,info,locale,lintian} "$1"/var/{cache,lib/apt,log}/*
}

# image_user DIR NAME ID HOME: root and one user (uid = gid = ID) owning HOME, /tmp for everyone.
image_user() {
  "${sudo[@]}" mkdir -p "$1$4" "$1/tmp" "$1/etc"
  printf 'root:x:0:0:root:/root:/nonexistent\n%s:x:%s:%s:%s:%s:/nonexistent\n' "$2" "$3" "$3" "$2" "$4" |
    "${sudo[@]}" tee "$1/etc/passwd" >/dev/null
  printf 'root:x:0:\n%s:x:%s:\n' "$2" "$3" | "${sudo[@]}" tee "$1/etc/group" >/dev/null
  "${sudo[@]}" chown "$3:$3" "$1$4"
  "${sudo[@]}" chmod 1777 "$1/tmp"
}
