#!/usr/bin/env bash
# Runs every test suite: type check, lint, build, the mocha suites (language, engine and CLI against real
# redis-servers the tests start; results panel in headless chromium), then the integration suite and the
# UI test in a real VS Code (code-server). Installs what it lacks first (npm packages; redis-server,
# chromium and code-server's tools when root). Ends with one line `tests: N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
ensure_node_modules
ensure_redis

npm run --silent typecheck
npm run --silent lint
npm run --silent build >/dev/null
# Only the unit output: the e2e harness keeps its own files under out/.
rm -rf out/test/unit out/test/browser out/src
npx tsc -p . --outDir out

log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
failed=0
status=0

count_mocha() {
  local p f
  p=$(grep -Eo '^ +[0-9]+ passing' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
  f=$(grep -Eo '^ +[0-9]+ failing' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
  passed=$((passed + p)); failed=$((failed + f))
}
count_plain() {
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 || true)
  [ -n "$line" ] || { failed=$((failed + 1)); return; }
  passed=$((passed + $(echo "$line" | cut -d' ' -f1))); failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}

npx mocha --config .mocharc.json 2>&1 | tee "$log" || status=1
count_mocha

if [ "${RBENCH_SKIP_VSCODE_TESTS:-}" = 1 ]; then
  echo "Skipping the VS Code suites (RBENCH_SKIP_VSCODE_TESTS=1)."
else
  RBENCH_E2E_SKIP_BUILD=1 bash scripts/test-e2e.sh 2>&1 | tee "$log" || status=1
  count_plain
  if [ -f scripts/test-ui.sh ]; then
    bash scripts/test-ui.sh 2>&1 | tee "$log" || status=1
    count_plain
  fi
fi

echo "tests: $passed passed, $failed failed"
[ "$failed" = 0 ] || status=1
exit $status
