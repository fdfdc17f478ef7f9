#!/bin/sh
# Where a managed upload's time goes (issue 31), on the device machine, from the bundle that
# bench/device/bundle.mjs packs into .carry/benchdev: the primitives alone (MD5 per core, page-cache
# write per thread, in-memory copy), then managed transfers of PROFILE_SIZE (4GiB) from
# PROFILE_MEMORY (host; or cuda), PROFILE_ROUNDS (2) rounds, while every thread of every node
# process is sampled (utime+stime and the system call it is in, every 0.2 s, from /proc).
# Results in $OUT: primitives.txt, threads.tsv (python3 bench/device/thread-cpu.py sums it; with
# --marks managed-log.txt, per upload), managed-log.txt. The gateway's environment is this one's
# (VGWRDMA_MD5=lanes, VGWRDMA_FILE_WRITERS=0, ...); PROFILE_ARGS adds managed.mjs flags.
#   sh .carry/benchdev/profile-up.sh
set -u
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/prof-out}
mkdir -p "$OUT"
gunzip -c "$B/node.gz" >/tmp/vgw-node && chmod +x /tmp/vgw-node
N=/tmp/vgw-node
{
  echo "cores $(nproc); /tmp on: $(df -T /tmp | tail -1)"
  $N -e '
    const { createHash } = require("node:crypto");
    const b = Buffer.alloc(64 << 20, 7);
    let t = process.hrtime.bigint(); for (let i = 0; i < 8; i++) createHash("md5").update(b).digest();
    console.log("md5 one core GB/s", (8 * b.length / Number(process.hrtime.bigint() - t)).toFixed(2));
    const d = Buffer.allocUnsafe(b.length);
    t = process.hrtime.bigint(); for (let i = 0; i < 16; i++) b.copy(d);
    console.log("memcpy one thread GB/s", (16 * b.length / Number(process.hrtime.bigint() - t)).toFixed(2));
    const big = new Uint8Array(4 * 2 ** 30);
    t = process.hrtime.bigint(); for (let o = 0; o < big.length; o += b.length) big.set(b, o);
    console.log("first-touch 4GiB fill GB/s", (big.length / Number(process.hrtime.bigint() - t)).toFixed(2));
  '
  for j in 1 4 16; do
    rm -f /tmp/vgw-dd-*; sync
    s=$(date +%s.%N)
    i=0; while [ $i -lt $j ]; do dd if=/dev/zero of=/tmp/vgw-dd-$i bs=64M count=$((64 / j)) 2>/dev/null & i=$((i + 1)); done; wait
    e=$(date +%s.%N)
    echo "page-cache write 4GiB by $j writers GB/s $(awk "BEGIN { printf \"%.2f\", 4.295 / ($e - $s) }")"
  done
  rm -f /tmp/vgw-dd-*
  cat /proc/sys/vm/dirty_ratio /proc/sys/vm/dirty_background_ratio | tr '\n' ' '; echo "(dirty_ratio, dirty_background_ratio)"
  free -g | head -2
} >"$OUT/primitives.txt" 2>&1
cat "$OUT/primitives.txt"

sample() {
  while :; do
    t=$(date +%s.%N)
    for p in $(pgrep -f vgw-node); do
      for s in /proc/$p/task/*/stat; do
        [ -r "$s" ] && echo "$t $p $(cut -d' ' -f1,2,14,15 "$s" 2>/dev/null) $(cut -d' ' -f1 "${s%stat}syscall" 2>/dev/null)"
      done
    done
    sleep 0.2
  done
}
sample >"$OUT/threads.tsv" &
SP=$!
VGWRDMA_BENCH_MARKS=1 VGWRDMA_SHIM_DIR="$B" $N "$B/managed.mjs" --bundled --sizes "${PROFILE_SIZE:-4GiB}" --memory "${PROFILE_MEMORY:-host}" \
  --methods managed --rounds "${PROFILE_ROUNDS:-2}" --out "$OUT" --label profile ${PROFILE_ARGS:-} >"$OUT/managed-log.txt" 2>&1
kill $SP
tail -30 "$OUT/managed-log.txt"
