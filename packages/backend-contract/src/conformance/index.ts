// The backend conformance kit: one vitest suite any Backend runs against its factory to show it
// answers the S3 contract alike (no HTTP involved). Usage, in a backend package's test:
//   runBackendConformance('posix', async () => ({ backend, cleanup }), { skip: ['limits.metadata-too-large'] });
// Every case title names the S3 behaviour it pins; the bracketed id is what `skip` takes.
import { describe } from 'vitest';
import { bucketCases } from './buckets.js';
import { checksumCases } from './checksums.js';
import { copyCases } from './copy.js';
import { type ConformanceFactory, type ConformanceOptions, Harness } from './harness.js';
import { limitCases } from './limits.js';
import { listingCases } from './listing.js';
import { multipartCases } from './multipart.js';
import { objectCases } from './objects.js';
import { readCases } from './reads.js';

export type { ConformanceFactory, ConformanceOptions, ConformanceSubject } from './harness.js';

/** The case groups, in the order they run. `skip` takes case ids or their dotted prefixes. */
const GROUPS = {
  buckets: bucketCases,
  objects: objectCases,
  reads: readCases,
  copy: copyCases,
  checksums: checksumCases,
  listing: listingCases,
  multipart: multipartCases,
  limits: limitCases,
} as const;

export function runBackendConformance(
  name: string,
  factory: ConformanceFactory,
  options: ConformanceOptions = {},
): void {
  describe(`backend conformance: ${name}`, () => {
    const h = new Harness(factory, options);
    h.install();
    for (const [group, register] of Object.entries(GROUPS)) {
      describe(group, () => register(h));
    }
  });
}
