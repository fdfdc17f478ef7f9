#!/bin/sh
# Issue 10's GPU run, from the bundle that bench/device/bundle.mjs packs into .carry/benchdev:
#  1. the CUDA C tests (ASan/UBSan) against the machine's real libcudart, each case on its own:
#     test_cuda_device (real device memory, staged through softnic, checked on the device),
#     test_cuda_staging, test_cuda_client;
#  2. GPU-memory round trips through a real gateway process (gpu-roundtrip.mjs: cuobjtest
#     --memory cuda --compare, host-memory baseline, staging splits), with the carried Node;
#  3. staging overlapped with the transfer vs not (gpu-overlap.mjs: 1 GiB cuda sessions with
#     staging.overlap true / false, alternating pairs, every round trip verified on the device).
# GPU_ONLY=overlap runs step 3 alone (and the C tests of step 1); GPU_OVERLAP_SIZE (1GiB) and
# GPU_OVERLAP_PAIRS (5) size it.
# GPU_ONLY=managed runs only the managed-transfer benchmark (issue 31, bench/managed.mjs: managed
# RDMA vs one RDMA PUT/GET vs the AWS SDK's multipart over HTTP, host and GPU memory;
# MANAGED_SIZES, default 1GiB,4GiB,16GiB; MANAGED_ROUNDS, default 2; MANAGED_ARGS for more flags)
# and writes managed-<ts>.json and managed-latest.md to $OUT; no C tests.
# Run from the repository root (the native-shims sources travel with the working tree):
#   sh .carry/benchdev/run-gpu.sh            results in $OUT (the device tool's folder) or ./gpu-out
# Exit 0 only when every C case passed (or skipped) and every transfer verified.
set -u
B=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/gpu-out}
SIZES=${GPU_SIZES:-256MiB,1GiB}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
rc=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"

if [ "${GPU_ONLY:-}" = managed ]; then
  gunzip -c "$B/node.gz" >/tmp/vgw-node && chmod +x /tmp/vgw-node
  # shellcheck disable=SC2086 # MANAGED_ARGS is a list of flags
  {
    VGWRDMA_SHIM_DIR="$B" /tmp/vgw-node "$B/managed.mjs" --bundled --sizes "${MANAGED_SIZES:-1GiB,4GiB,16GiB}" \
      --memory host,cuda --rounds "${MANAGED_ROUNDS:-2}" --out "$OUT" --label "GPU device machine" ${MANAGED_ARGS:-}
    echo $? >/tmp/vgw-managed-rc
  } 2>&1 | tee "$OUT/managed-log.txt"
  exit "$(cat /tmp/vgw-managed-rc 2>/dev/null || echo 1)"
fi

T=/tmp/vgw-cuda-tests
if cmake -S native-shims -B $T -DVGW_SHIMS_TESTS=ON -DVGW_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >$T.log 2>&1 &&
  cmake --build $T --parallel "$(nproc)" --target test_cuda_device test_cuda_staging test_cuda_client vgw_fake_cudart >>$T.log 2>&1; then
  for t in test_cuda_device test_cuda_staging test_cuda_client; do
    for c in $($T/$t --list); do
      # protect_shadow_gap=0: the CUDA driver maps where ASan keeps its shadow gap
      (cd $T && ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 ./$t "$c") >>"$OUT/c-tests.txt" 2>&1
      s=$?
      echo "$t $c exit $s" >>"$OUT/c-tests.txt"
      [ $s -eq 0 ] || [ $s -eq 77 ] || rc=1
    done
  done
else
  tail -40 $T.log >"$OUT/c-tests.txt"
  rc=1
fi
grep ' exit ' "$OUT/c-tests.txt"

gunzip -c "$B/node.gz" >/tmp/vgw-node && chmod +x /tmp/vgw-node
if [ "${GPU_ONLY:-}" != overlap ]; then
  VGWRDMA_SHIM_DIR="$B" /tmp/vgw-node "$B/gpu-roundtrip.mjs" --bundled --sizes "$SIZES" --out "$OUT" \
    --label "GPU device machine" || rc=1
fi
VGWRDMA_SHIM_DIR="$B" /tmp/vgw-node "$B/gpu-overlap.mjs" --size "${GPU_OVERLAP_SIZE:-1GiB}" \
  --pairs "${GPU_OVERLAP_PAIRS:-5}" --out "$OUT" --label "GPU device machine" || rc=1
exit $rc
