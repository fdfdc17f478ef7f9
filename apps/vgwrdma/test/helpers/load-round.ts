// A round of the load tests' clients (load-client.ts): one client per registered region, each
// with its own SDK client, all at once until a deadline; and their release afterwards.
import type { HostMemory } from '@vgwrdma/rdma-ffi';
import { type LoadCounts, runLoadClient } from './load-client.js';
import type { S3Client } from './rdma.js';

export interface LoadClients {
  readonly regions: readonly HostMemory[];
  /** One per region, same order. */
  readonly sdks: readonly S3Client[];
  readonly bucket: string;
  readonly counts: LoadCounts;
}

/** Runs a load client per region until `deadline`; client i has id base + i. */
export async function loadRound(c: LoadClients, deadline: number, base = 0): Promise<void> {
  await Promise.all(
    c.regions.map((region, i) =>
      runLoadClient({
        id: base + i,
        sdk: c.sdks[i] as S3Client,
        bucket: c.bucket,
        region,
        deadline,
        counts: c.counts,
      }),
    ),
  );
}

/** Destroys the clients' SDK clients and closes their regions. */
export function releaseClients(c: Pick<LoadClients, 'regions' | 'sdks'>): void {
  for (const s of c.sdks) s.destroy();
  for (const r of c.regions) r.close();
}
