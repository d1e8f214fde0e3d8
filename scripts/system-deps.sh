#!/usr/bin/env bash
# Install the Debian packages the test suite starts for real (PostgreSQL, Chromium, node and npm for the
# browser client's unit tests and type check),
# only where they are missing: nothing is downloaded on a machine that has them.
# Runs as root on Debian (CI and a fresh machine); elsewhere it says what is missing.
set -euo pipefail

missing=()
command -v /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: missing ${missing[*]}; install them (Debian: apt-get install ${missing[*]})" >&2
    exit 1
fi
echo "system-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
