#!/bin/sh
# One-knob sweeps of the managed-transfer benchmark on the device machine (issue 31), in one run:
# each line of SWEEP (name|environment|managed.mjs flags) is one invocation of the bundled
# managed.mjs (SWEEP_ROUNDS rounds, cold then warm, of SWEEP_SIZES from and into SWEEP_MEMORY),
# with the whole host's CPU sampled once a second (vmstat) beside it, so each arm's log says
# whether the host ran out of cores. Logs and each arm's JSON in $OUT.
#   SWEEP='base||
#   agent16||--max-per-agent 16' sh .carry/benchdev/sweep-managed.sh
set -u
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/sweep-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x /tmp/vgw-node ] || { gunzip -c "$B/node.gz" >/tmp/vgw-node && chmod +x /tmp/vgw-node; }
echo "${SWEEP:?SWEEP: lines of name|env|flags}" | while IFS='|' read -r name envs flags; do
  [ -n "$name" ] || continue
  vmstat -n 1 >"$OUT/$name.vmstat" 2>&1 &
  vm=$!
  # shellcheck disable=SC2086 # envs and flags are word lists on purpose
  env $envs VGWRDMA_SHIM_DIR="$B" /tmp/vgw-node "$B/managed.mjs" --bundled --sizes "${SWEEP_SIZES:-4GiB}" \
    --memory "${SWEEP_MEMORY:-host}" --methods managed --rounds "${SWEEP_ROUNDS:-2}" --out "$OUT/$name" \
    --label "$name" $flags >"$OUT/$name.log" 2>&1
  kill "$vm" 2>/dev/null
  echo "== $name [$envs] [$flags]: $(grep -E 'managed: up' "$OUT/$name.log" | tr '\n' ' ')"
done
