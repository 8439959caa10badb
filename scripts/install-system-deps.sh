#!/usr/bin/env bash
# Installs the Debian packages the tests need, only those that are missing (all of them, or just
# the ones named as arguments):
#   postgresql   server binaries; the PostgreSQL store tests start a throw-away cluster with them
#   chromium     the browser that drives VS Code in the end-to-end tests
#   libkrb5-dev  headers for a code-server native module (end-to-end tests)
#   neovim       named explicitly (npm run test:unit does): the Neovim test of the language server
# When everything is present, nothing runs: no apt-get, no network.
set -euo pipefail
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(postgresql chromium libkrb5-dev)

present() {
  case "$1" in
    postgresql) ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 ;;
    chromium) [ -x /usr/bin/chromium ] ;;
    libkrb5-dev) [ -e /usr/include/krb5.h ] ;;
    neovim) command -v nvim >/dev/null 2>&1 ;;
    *) echo "[system deps] unknown package $1" >&2; exit 2 ;;
  esac
}

missing=()
for package in "${wanted[@]}"; do present "$package" || missing+=("$package"); done
[ ${#missing[@]} -gt 0 ] || exit 0

echo "[system deps] Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# The postgresql package would start a system-wide server; the tests run their own, so keep it
# from starting (policy-rc.d exit 101 = "not allowed"), and remove that rule afterwards.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod +x /usr/sbin/policy-rc.d
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
