# Sourced by the README's commands: installs what a fresh Debian machine lacks.
ensure_node_modules() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
}

ensure_redis() {
  if command -v redis-server >/dev/null && command -v redis-benchmark >/dev/null; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing redis-server and redis-tools (apt-get)…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools >/dev/null
  else
    echo "redis-server is missing: install the Debian packages redis-server and redis-tools (sudo apt-get install redis-server redis-tools)." >&2
    return 1
  fi
}

# The browser suites (test/browser) drive Debian's chromium; without it they fail, never skip.
ensure_chromium() {
  local c
  for c in "${RBENCH_CHROMIUM:-}" /usr/bin/chromium; do
    [ -n "$c" ] && [ -x "$c" ] && return 0
  done
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing chromium (apt-get) for the browser tests…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "chromium is missing: install the Debian package chromium (sudo apt-get install chromium) or set RBENCH_CHROMIUM." >&2
    return 1
  fi
}

# A real Redis module (RediSearch: FT.* commands) for the server's own command table, gcc for a tiny test
# module, and a real Prometheus that scrapes `rbench run --metrics`; the tests that need them fail, never
# skip, without them.
ensure_test_services() {
  local need=()
  [ -f /usr/lib/redis/modules/redisearch.so ] || need+=(redis-redisearch)
  command -v prometheus >/dev/null || need+=(prometheus)
  # The module tests compile a tiny module of their own (an admin-flagged command RediSearch lacks).
  command -v gcc >/dev/null || need+=(gcc)
  # The lossy-path verdict test drops packets with iptables inside a network namespace of its own (ip netns).
  command -v iptables >/dev/null || need+=(iptables)
  command -v ip >/dev/null || need+=(iproute2)
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing ${need[*]} (apt-get) for the module, metrics and network tests…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "${need[*]} missing: install the Debian packages (sudo apt-get install ${need[*]})." >&2
    return 1
  fi
}
