#!/usr/bin/env bash
# Runs the integration suite (test/integration) in a real VS Code, offline: code-server on a free
# loopback port, driven by headless chromium through playwright-core (test/e2e/driver.ts). The tools
# are installed once per machine by scripts/e2e-setup.sh, cached outside the checkout.
#
#   bash scripts/test-e2e.sh            (or: npm run test:e2e)
#
# Ends with a line `N passed, N failed` and exits non-zero when a test fails or the run breaks.
# Logs (code-server, browser console, VS Code's logs, a screenshot on timeout) go to out/e2e/.
# Environment:
#   RBENCH_E2E_EXTENSION_ENV='{"REDIS_URL":"redis://127.0.0.1:6379"}'  extra variables for the extension host
#   RBENCH_E2E_GREP=pattern       run only the matching tests
#   RBENCH_E2E_TIMEOUT=600        seconds for the whole suite (a hang guard);  RBENCH_E2E_VERBOSE=1  print the workbench log
#   RBENCH_E2E_KEEP=1             keep the scratch folder (HOME, profiles) for a look afterwards
#   RBENCH_E2E_SKIP_BUILD=1       do not run `npm run build` first
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

fail_early() {
  echo "test-e2e: $*" >&2
  echo "0 passed, 1 failed"
  exit 1
}

source scripts/ensure-deps.sh
ensure_node_modules
# The tools (cached outside the checkout; the driver points HOME/XDG_* elsewhere only for code-server).
env_lines=$(bash scripts/e2e-setup.sh --env) || fail_early "scripts/e2e-setup.sh failed"
eval "$env_lines"
export RBENCH_E2E_CHROMIUM RBENCH_E2E_NODE24_BIN RBENCH_E2E_CODE_SERVER RBENCH_E2E_PLAYWRIGHT

if [ "${RBENCH_E2E_SKIP_BUILD:-}" != 1 ]; then
  build_log=$(npm run --silent build 2>&1) || { echo "$build_log" >&2; fail_early "npm run build failed"; }
fi
[ -f dist/extension.js ] || fail_early "dist/extension.js is missing: run npm run build"
rm -rf out/test/integration out/test/e2e out/test/desktop
npx tsc -p test/integration/tsconfig.json || fail_early "the integration suite does not compile"
echo "test-e2e: built in $(( $(date +%s) - start ))s" >&2

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rbench-e2e.XXXXXX")
export RBENCH_E2E_SCRATCH="$scratch"
export RBENCH_E2E_ARTIFACTS="${RBENCH_E2E_ARTIFACTS:-$PWD/out/e2e}"
cleanup() {
  # The driver kills code-server's process group itself; this catches a driver that was killed.
  if [ -f "$scratch/code-server.pid" ]; then
    pid=$(cat "$scratch/code-server.pid")
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  if [ "${RBENCH_E2E_KEEP:-}" = 1 ]; then
    echo "test-e2e: kept $scratch" >&2
  else
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The driver runs on the project's Node; only code-server runs on Node 24. Chromium and playwright
# write their temp files into the scratch folder too.
set +e
RBENCH_E2E_STARTED=$start TMPDIR="$scratch" node out/test/e2e/driver.js
code=$?
set -e
exit $code
