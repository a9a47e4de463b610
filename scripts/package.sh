#!/usr/bin/env bash
# Builds the extension's .vsix: production bundles (minified, no source maps), then `vsce package`.
# Every runtime dependency is bundled into dist/ by esbuild, so vsce skips node_modules
# (--no-dependencies). Works offline. Afterwards it checks what went into the package: the bundles,
# grammar, snippets, README, LICENSE… and none of src/, test/, out/ or node_modules/.
#
#   bash scripts/package.sh [OUT.vsix]      (or: npm run package)    default: rbench.vsix
#
# The build and vsce run in a copy of the checkout (node_modules linked, dist/ and out/ left out), so
# dist/ — which tests and a running debug session use — is never touched, and no stale file of a
# development build (source maps) can end up in the package.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-rbench.vsix}")

source scripts/ensure-deps.sh
ensure_node_modules

stage=$(mktemp -d "${TMPDIR:-/tmp}/rbench-package.XXXXXX")
trap 'rm -rf "$stage"' EXIT
tar -c --exclude=./node_modules --exclude=./dist --exclude=./out --exclude=./.git --exclude=./.rbench \
  --exclude='./*.vsix' --exclude=./.vscode-test --exclude=./.e2e-cache -f - . | tar -x -C "$stage"
ln -s "$PWD/node_modules" "$stage/node_modules"

build_log=$(cd "$stage" && node esbuild.mjs --production 2>&1) || { echo "$build_log" >&2; echo 'package: the production build failed' >&2; exit 1; }

mkdir -p "$(dirname "$out")"
rm -f "$out"
# vsce rewrites the README's relative links against package.json's `repository` (images to
# …/raw/HEAD/…, links to …/blob/HEAD/…): the Marketplace and the editor's extension page show the
# packaged readme.md on its own, where a relative image would be broken.
(cd "$stage" && npx --no-install vsce package --no-dependencies -o "$out") >&2

# --- check the contents -----------------------------------------------------------------------------
listing=$(unzip -Z1 "$out")
problems=()
for want in extension/package.json extension/dist/extension.js extension/dist/cli.js extension/dist/cli-main.js extension/dist/cli-main.cache extension/dist/worker.js extension/dist/worker-main.js extension/dist/worker-main.cache extension/dist/ioredis/ioredisConnection.js \
  extension/dist/fast/fastClusterConnection.js extension/dist/ioredis/ioredisClusterConnection.js \
  extension/dist/zod.js extension/dist/hdr-histogram.js \
  extension/language-configuration.json extension/readme.md extension/LICENSE.txt extension/changelog.md \
  extension/syntaxes/rbench.tmLanguage.json extension/snippets/rbench.json; do
  grep -qixF "$want" <<<"$listing" || problems+=("missing $want")
done
grep -q '^extension/dist/webview/[^/]*\.js$' <<<"$listing" || problems+=("missing extension/dist/webview/*.js")
# The icons and walkthrough media package.json names, and the examples "Open Example Scenario" lists.
for media in $(grep -oE '"(\./)?media/[^"]+"' package.json | tr -d '"' | sed 's|^\./||' | sort -u); do
  grep -qxF "extension/$media" <<<"$listing" || problems+=("missing extension/$media (named in package.json)")
done
grep -q '^extension/examples/[^/]*\.rbench$' <<<"$listing" || problems+=("missing extension/examples/*.rbench")
# Every image of the packaged README must be an absolute https URL (see the vsce call above).
relative=$(unzip -p "$out" extension/readme.md | grep -oE '!\[[^]]*\]\([^)]*\)|<img [^>]*src="[^"]*"' | grep -vE '\(https://|src="https://' || true)
[ -z "$relative" ] || problems+=("README images that would break on the Marketplace: $(tr '\n' ' ' <<<"$relative")")
bad=$(grep -E '^extension/(src|test|out|node_modules|webview|bench|\.rbench|\.vscode)/|\.(map|ts|vsix)$' <<<"$listing" || true)
[ -z "$bad" ] || problems+=("should not be packaged: $(tr '\n' ' ' <<<"$bad")")
if [ ${#problems[@]} -gt 0 ]; then
  printf 'package: %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "package: $out ($(du -k "$out" | cut -f1) KB, $(grep -c '^extension/' <<<"$listing") files)" >&2
