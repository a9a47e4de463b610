#!/usr/bin/env bash
# The packaged extension, used as a person would, offline: packages rbench.vsix (scripts/package.sh),
# installs it into a fresh code-server, opens a scratch workspace with a small .rbench file in headless
# chromium (playwright-core), clicks "▶ Run", waits for "Run complete" and the summary lens, checks the
# run file, opens the RBench output channel, takes screenshots, then runs "Run All" from the command palette
# through its modal confirmation and checks one progress, runs one after another and one summary
# (test/ui/driver.ts). The tools are
# the ones scripts/test-e2e.sh uses (scripts/e2e-setup.sh, cached outside the checkout).
#
#   bash scripts/test-ui.sh                       (or: npm run test:ui)
#   bash scripts/test-ui.sh --update-screenshots  also copy the screenshots into docs/images/ when it passes
#
# Ends with a line `N passed, N failed` and exits non-zero on a failure. Everything it writes in the
# checkout goes to out/ui/ (compiled driver, rbench.vsix, logs, editor-*.png, failure.png), apart from
# the production bundles scripts/package.sh builds into dist/, so it can run beside test-e2e.sh.
# Environment:
#   RBENCH_UI_VSIX=path.vsix   test this package instead of building one
#   RBENCH_UI_TIMEOUT=270      seconds for the driver;  RBENCH_UI_KEEP=1  keep the scratch folder
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

fail_early() {
  echo "test-ui: $*" >&2
  echo "0 passed, 1 failed"
  exit 1
}

docs_images=
for arg in "$@"; do
  case "$arg" in
    --update-screenshots) docs_images=$PWD/docs/images ;;
    *) fail_early "unknown argument $arg (known: --update-screenshots)" ;;
  esac
done

source scripts/ensure-deps.sh
ensure_node_modules
ensure_redis || fail_early "redis-server is needed: the extension starts a throwaway one for the run"
env_lines=$(bash scripts/e2e-setup.sh --env) || fail_early "scripts/e2e-setup.sh failed"
eval "$env_lines"
export RBENCH_E2E_CHROMIUM RBENCH_E2E_NODE24_BIN RBENCH_E2E_CODE_SERVER RBENCH_E2E_PLAYWRIGHT

mkdir -p out/ui
vsix=${RBENCH_UI_VSIX:-}
if [ -z "$vsix" ]; then
  vsix=$PWD/out/ui/rbench.vsix
  bash scripts/package.sh "$vsix" 2>out/ui/package.log || { cat out/ui/package.log >&2; fail_early "packaging failed"; }
  tail -1 out/ui/package.log >&2
fi
[ -f "$vsix" ] || fail_early "$vsix does not exist"
rm -rf out/ui/js
npx tsc -p test/ui/tsconfig.json || fail_early "the UI test does not compile"
echo "test-ui: packaged and built in $(( $(date +%s) - start ))s" >&2

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rbench-ui.XXXXXX")
cleanup() {
  # The driver kills code-server's process group itself; this catches a driver that was killed.
  if [ -f "$scratch/code-server.pid" ]; then
    kill -KILL -- "-$(cat "$scratch/code-server.pid")" 2>/dev/null || true
  fi
  if [ "${RBENCH_UI_KEEP:-}" = 1 ]; then
    echo "test-ui: kept $scratch" >&2
  else
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

set +e
RBENCH_UI_STARTED=$start RBENCH_UI_SCRATCH="$scratch" RBENCH_UI_VSIX="$(realpath "$vsix")" \
  RBENCH_UI_ARTIFACTS="$PWD/out/ui" RBENCH_UI_DOCS_IMAGES="$docs_images" TMPDIR="$scratch" \
  node out/ui/js/test/ui/driver.js
code=$?
set -e
exit $code
