#!/usr/bin/env bash
# The README's first command: set up a fresh machine, then run the bundled redis-benchmark example
# against a throwaway local redis-server and print the results. Extra arguments go to `rbench run`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
ensure_node_modules
ensure_redis
npm run --silent build >/dev/null
exec node dist/cli.js run examples/redis-benchmark-default.rbench "$@"
