# Shared helpers for the scripts in this folder. Sourced, not run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
# Each line carries the wall-clock time, so a log of npm test shows where its minutes go.
log() { printf '\033[1m[aeadbench %s]\033[0m %s\n' "$(date +%T)" "$*" >&2; }
die() { printf '[aeadbench] error: %s\n' "$*" >&2; exit 1; }

# A lean build keeps no intermediate files: each target dir goes once what it built is copied
# out, so a disk with little room still takes npm test (a CI machine ran out at 1 GiB or so).
# Automatic below 8 GiB free on the tree's filesystem; AEADBENCH_LEAN=1 forces it, =0 forbids it.
lean_build() {
  case "${AEADBENCH_LEAN:-}" in 1) return 0 ;; 0) return 1 ;; esac
  [ "$(df -Pm "$ROOT" | awk 'NR == 2 { print $4 }')" -lt 8192 ]
}

# The wasm-bindgen version locked in Cargo.lock: the CLI must match the crate exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

# Installs Debian packages that are missing (CI and fresh machines run as root).
apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
