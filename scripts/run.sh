#!/usr/bin/env bash
# The README's commands: every one installs (pnpm, pinned, through npx) and builds first, so each
# works on a fresh clone with only Node >= 20, npm and a C/C++ toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
PNPM=(npx --yes pnpm@10.34.9)

install() {
  "${PNPM[@]}" install --frozen-lockfile --loglevel=warn
}
build() {
  install
  "${PNPM[@]}" exec turbo run build --output-logs=errors-only
}

case "${1:-}" in
  build) build ;;
  start)
    build
    shift
    exec node scripts/start.mjs "$@"
    ;;
  test)
    # Build once, here, before vitest starts: the globalSetups only check that the builds exist.
    build
    shift
    exec node scripts/test.mjs "$@"
    ;;
  lint)
    install
    "${PNPM[@]}" exec biome check .
    # One test layout: every test lives in its package's test/ folder, none beside the code.
    misplaced=$(git ls-files '*/src/*.test.ts' '*/src/**/*.test.ts')
    if [ -n "$misplaced" ]; then
      echo "tests belong in the package's test/ folder, not src/:" >&2
      echo "$misplaced" >&2
      exit 1
    fi
    # A package's own tests import its src/ by path: its name resolves to dist/, which a fresh
    # clone's typecheck (run before any build) does not have.
    for manifest in packages/*/package.json; do
      dir=$(dirname "$manifest")
      name=$(node -p "require('./$manifest').name")
      self=$(git ls-files "$dir/test/*.ts" "$dir/test/**/*.ts" | xargs -r grep -lE "^import .* from '$name'" || true)
      if [ -n "$self" ]; then
        echo "these tests import $name by name; import ../src instead:" >&2
        echo "$self" >&2
        exit 1
      fi
    done
    ;;
  typecheck)
    install
    "${PNPM[@]}" exec turbo run typecheck --output-logs=errors-only
    # bench/ and scripts/ are not workspace packages: their tests are type-checked from here.
    "${PNPM[@]}" exec tsc -p bench/tsconfig.json
    "${PNPM[@]}" exec tsc -p scripts/tsconfig.json
    ;;
  *)
    echo "usage: scripts/run.sh build|start|test [--unit|--e2e]|lint|typecheck" >&2
    exit 2
    ;;
esac
