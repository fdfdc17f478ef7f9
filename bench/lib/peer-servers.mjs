// The servers the plain-path comparison (`npm run bench -- --peer rgw[,s3rver]`) measures besides
// the gateway, each as { kind, endpoint, region, access, secret, pids, stop } — pids are what its
// CPU is read from (for Ceph RGW: radosgw, ceph-osd and ceph-mon together) — or { kind, skipped }
// with the reason. RGW comes from test-kit's fixture (sharedCephRgw; VGW_TEST_RGW=<state.json>
// points it at one already running); s3rver is the npm package in its own process.

import { readFileSync } from 'node:fs';
import { startServer } from './server-process.mjs';

const TEST_KIT = '../../packages/test-kit/dist/index.js';

/** An RGW described by a state file (the shape test-kit's fixture and shared/tools write). */
function rgwFromState(file) {
  const st = JSON.parse(readFileSync(file, 'utf8'));
  const pids = st.pidFiles.map((f) => Number(readFileSync(f, 'utf8').trim()));
  return {
    endpoint: st.endpoint,
    region: st.region ?? 'us-east-1',
    access: st.users.main.accessKeyId,
    secret: st.users.main.secretAccessKey,
    pids,
  };
}

async function startRgw() {
  const kit = await import(TEST_KIT).catch(() => ({}));
  if (typeof kit.sharedCephRgw === 'function') {
    const reason = kit.cephRgwUnavailable?.();
    if (reason) return { skipped: reason };
    const rgw = await kit.sharedCephRgw();
    return {
      endpoint: rgw.endpoint,
      region: rgw.region,
      access: rgw.main.accessKeyId,
      secret: rgw.main.secretAccessKey,
      pids: rgw.pids(),
    };
  }
  // test-kit without the fixture yet: an RGW that is already running, named by its state file
  if (process.env.VGW_TEST_RGW) return rgwFromState(process.env.VGW_TEST_RGW);
  return { skipped: 'no Ceph RGW fixture in test-kit and VGW_TEST_RGW not set' };
}

const PEERS = {
  rgw: async () => ({ ...(await startRgw()), stop: async () => {}, stderr: () => '' }),
  s3rver: async () => {
    const s = await startServer('s3rver');
    return {
      endpoint: s.endpoint,
      access: 'S3RVER',
      secret: 'S3RVER',
      pids: [s.pid],
      stop: s.stop,
      stderr: s.stderr,
    };
  },
};

export const PEER_NAMES = Object.keys(PEERS);

/** Starts (or finds) the named peer. */
export async function startPeer(kind) {
  return { kind, ...(await PEERS[kind]()) };
}
