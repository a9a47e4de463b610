#!/usr/bin/env bash
# Runs every test suite: type check, lint, build, unit and engine tests against a real redis-server.
# Installs what it lacks first (npm packages; redis-server via apt-get when root).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
ensure_node_modules
ensure_redis

npm run --silent typecheck
npm run --silent lint
npm run --silent build
# Only the unit output: the e2e harness keeps its own files under out/.
rm -rf out/test/unit out/src
npx tsc -p . --outDir out
npx mocha --config .mocharc.json
