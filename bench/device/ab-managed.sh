#!/bin/sh
# A/B of two bundles of the managed-transfer benchmark on the device machine (issue 31), in one
# run: `old/` (managed.mjs, gateway-child.mjs and libvgwrdma_shims.so of the code before a change,
# bundled with `node bench/device/bundle.mjs --out DIR --no-node` from that checkout and copied
# into .carry/benchdev/old/) against the current bundle, alternating AB_PAIRS (2) times, each
# invocation AB_ROUNDS (2) rounds of AB_SIZES (4GiB) from and into AB_MEMORY (host,cuda).
# AB_VARIANT_ENV (e.g. VGWRDMA_REGION_WRITE=pwrite) adds a third arm: the current bundle with
# that environment. Logs and each arm's JSON in $OUT.
#   sh .carry/benchdev/ab-managed.sh
set -u
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/ab-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
gunzip -c "$B/node.gz" >/tmp/vgw-node && chmod +x /tmp/vgw-node
arm() { # name dir [env]
  name=$1 dir=$2
  shift 2
  mkdir -p "$OUT/$name"
  env "$@" VGWRDMA_SHIM_DIR="$dir" /tmp/vgw-node "$dir/managed.mjs" --bundled --sizes "${AB_SIZES:-4GiB}" \
    --memory "${AB_MEMORY:-host,cuda}" --methods managed --rounds "${AB_ROUNDS:-2}" --out "$OUT/$name" \
    --label "$name" >>"$OUT/$name.log" 2>&1
  echo "== $name: $(grep -E 'managed: up' "$OUT/$name.log" | tail -4 | tr '\n' ' ')"
}
i=0
while [ $i -lt "${AB_PAIRS:-2}" ]; do
  arm old "$B/old"
  arm new "$B"
  [ -n "${AB_VARIANT_ENV:-}" ] && arm variant "$B" "$AB_VARIANT_ENV"
  i=$((i + 1))
done
for name in old new variant; do [ -f "$OUT/$name.log" ] && { echo "### $name"; grep -E 'up .* GB/s' "$OUT/$name.log"; }; done
