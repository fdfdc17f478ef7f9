// kill -9 of the gateway in the middle of HTTP PUTs, multipart completes and RDMA PUTs, repeated:
// after each restart on the same tree every visible object is complete and its ETag matches its
// bytes, the temp files the kill left in `.sgwtmp` are gone, and completes that were in flight
// succeed when retried. CI runs a few rounds; `npm run stress` runs FAULT_ROUNDS (>= 50).
import { writeFileSync } from 'node:fs';
import { HostClient } from '@vgwrdma/rdma-ffi';
import {
  type FaultScene,
  type GatewayProcess,
  makeTempDir,
  type RdmaGatewayOptions,
  ROOT_CREDENTIALS,
  removeDir,
  s3Client,
  startFaultScene,
  startRdmaGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrashRoundResult, clearRound, crashRound } from '../helpers/crash-round.js';

const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 3);
const RESULTS = process.env.FAULT_RESULTS_FILE;
const Bucket = 'crash';

describe(`gateway killed (SIGKILL) mid-write, ${ROUNDS} rounds`, () => {
  let root: string;
  let scene: FaultScene;
  let gw: GatewayProcess;
  let client: HostClient;
  /** Every start (the first, and each restart after a kill) on the one root. */
  const options = (): RdmaGatewayOptions => ({
    root,
    args: ['--pool-buf-size', '8MiB', '--pool-buf-count', '4'],
  });
  const start = () => startRdmaGateway(options());

  beforeAll(async () => {
    root = await makeTempDir('vgwrdma-crash-');
    client = new HostClient();
    scene = await startFaultScene({ ...options(), bucket: Bucket });
    ({ gw } = scene);
  });
  afterAll(async () => {
    client?.close();
    // The rounds restart the gateway: stop the current one before the scene (its first is long gone).
    await gw?.stop();
    await scene?.close();
    if (root) await removeDir(root);
  });

  it(
    'every visible object is whole with a matching ETag; restart clears .sgwtmp; in-flight completes retry',
    async () => {
      const results: Omit<CrashRoundResult, 'gateway'>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const { gateway, ...r } = await crashRound(gw, { round, bucket: Bucket, start, client });
        gw = gateway;
        results.push(r);
        const sdk = s3Client(gw.url, ROOT_CREDENTIALS);
        await clearRound(sdk, Bucket, round);
        sdk.destroy();
      }
      const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((a, r) => a + f(r), 0);
      const summary = {
        rounds: results.length,
        acknowledgedWrites: sum((r) => r.acknowledged),
        objectsAudited: sum((r) => r.audit.checked),
        corruptOrPartial: sum((r) => r.audit.problems.length),
        tempFilesLeftByKills: sum((r) => r.tempFilesAfterKill),
        tempFilesAfterRestarts: sum((r) => r.tempFilesAfterRestart),
        claimsLeftByKills: sum((r) => r.claimsAfterKill),
        claimsAfterRestarts: sum((r) => r.claimsAfterRestart),
        completesRetried: sum((r) => r.completesRetried),
      };
      console.log(`gateway-kill: ${JSON.stringify(summary)}`);
      if (RESULTS) writeFileSync(RESULTS, `${JSON.stringify({ summary, rounds: results }, null, 2)}\n`);
      // Every round (asserted after all of them, so the figures are written either way):
      for (const r of results) {
        const at = `round ${r.round} (${r.target})`;
        expect(r.errorsBeforeKill, at).toEqual([]);
        expect(r.audit.problems, at).toEqual([]); // visible objects whole, ETags matching
        expect(r.tempFilesAfterRestart, at).toBe(0); // the restart cleared what the kill left
        expect(r.claimsAfterRestart, at).toBe(0);
        expect(r.completeRetryFailures, at).toEqual([]);
      }
      // The kills really caught writes mid-way on disk (a kill can also land just after a
      // publish, so this is over the rounds, not each one).
      expect(summary.tempFilesLeftByKills).toBeGreaterThan(0);
      expect(summary.objectsAudited).toBeGreaterThan(0);
    },
    // A hang guard, not a speed target: a round on a loaded 2-core machine (writers, kill,
    // restart, retried completes, the audit) took longer than the 15 s once allowed per round.
    // Each wait inside a round is for a state and has its own bound (crash-round.ts).
    60_000 + ROUNDS * 150_000,
  );
});
