#!/bin/sh
# Installs the vgwrdma gateway from this repository into PREFIX (default /opt/vgwrdma):
#   PREFIX/app                  the app with its production dependencies (pnpm deploy)
#   PREFIX/lib                  libvgwrdma_shims.so (softnic, native hashing)
#   PREFIX/bin/vgwrdma          the command (node PREFIX/app/bin/vgwrdma.cjs, shim directory set)
#   PREFIX/bin/vgwrdma-healthcheck  exits 0 while the liveness path answers 200 (Docker HEALTHCHECK)
# These are the steps deploy/Dockerfile runs in its build stage, and what
# apps/vgwrdma/test/service-install.e2e.test.ts runs on the test machine.
#
# Usage: deploy/install.sh [--no-build] [PREFIX]
#   --no-build  use the existing build (npm run build already ran) instead of building first
set -eu

build=1
if [ "${1:-}" = "--no-build" ]; then
  build=0
  shift
fi
prefix=${1:-/opt/vgwrdma}
repo=$(cd "$(dirname "$0")/.." && pwd)
pnpm="npx --yes pnpm@10.34.9"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  *) echo "install.sh: unsupported platform $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

cd "$repo"
# pnpm install (frozen lockfile) + turbo build: the shims (CMake) and every package's dist/.
[ "$build" = 1 ] && npm run build

shim="$repo/native-shims/build/$platform/libvgwrdma_shims.so"
[ -f "$shim" ] || { echo "install.sh: $shim is missing: run npm run build" >&2; exit 1; }
[ -f "$repo/apps/vgwrdma/dist/main.js" ] || { echo "install.sh: apps/vgwrdma/dist is missing: run npm run build" >&2; exit 1; }

rm -rf "$prefix/app"
mkdir -p "$prefix/bin" "$prefix/lib"
# The app and its production dependencies only, workspace packages copied in (no symlinks into
# the repository). Peers are the gateway's own dependencies, so pnpm is told not to add them.
$pnpm --filter vgwrdma deploy --prod --legacy --prefer-offline --config.auto-install-peers=false "$prefix/app" >&2
cp "$shim" "$prefix/lib/"
cp "$repo/deploy/healthcheck.mjs" "$prefix/lib/healthcheck.mjs"

cat > "$prefix/bin/vgwrdma" <<SH
#!/bin/sh
# vgwrdma, as installed by deploy/install.sh.
export VGWRDMA_SHIM_DIR="\${VGWRDMA_SHIM_DIR:-$prefix/lib}"
exec node "$prefix/app/bin/vgwrdma.cjs" "\$@"
SH
cat > "$prefix/bin/vgwrdma-healthcheck" <<SH
#!/bin/sh
exec node "$prefix/lib/healthcheck.mjs" "\$@"
SH
chmod 0755 "$prefix/bin/vgwrdma" "$prefix/bin/vgwrdma-healthcheck"
echo "installed vgwrdma into $prefix"
