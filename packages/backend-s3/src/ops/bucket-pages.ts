// ListBuckets paging the upstream may not do. Ceph RGW 16.2 ignores max-buckets, prefix and
// continuation-token and answers every bucket of the user. Passed on as is, one page of a client
// (or the gateway's readiness probe, which asks for one bucket) would cost a meta-bucket read per
// bucket the upstream holds. So the answer is filtered and cut here; when it is cut, the token is
// one of ours (`vgw-after-<last name>`, bucket names need no escaping), which is never sent
// upstream: the next page asks for everything again and keeps the names after it. An upstream
// that pages itself (AWS) never answers more than asked, so its own token passes through.
import type { ListBucketsInput } from '@vgwrdma/backend-contract';

const OWN_TOKEN = 'vgw-after-';

/** The last bucket name of the page before, when the token is one this gateway made. */
function ownAfter(input: ListBucketsInput): string | undefined {
  const token = input.continuationToken;
  return token?.startsWith(OWN_TOKEN) ? token.slice(OWN_TOKEN.length) : undefined;
}

/** The continuation token to send upstream: the client's, unless it is one of ours. */
export function upstreamToken(input: ListBucketsInput): string | undefined {
  return ownAfter(input) === undefined ? input.continuationToken : undefined;
}

/** The page the client asked for, from what the upstream answered (and its own token). */
export function pageBuckets<B extends { Name: string }>(
  answered: readonly B[],
  answeredToken: string | undefined,
  input: ListBucketsInput,
): { buckets: B[]; continuationToken: string | undefined } {
  const after = ownAfter(input);
  const prefix = input.prefix ?? '';
  const wanted = answered.filter((b) => b.Name.startsWith(prefix) && (after === undefined || b.Name > after));
  const max = input.maxBuckets;
  if (max === undefined || wanted.length <= max) {
    return { buckets: wanted, continuationToken: after === undefined ? answeredToken : undefined };
  }
  // Bucket names are ASCII: code-unit order is S3's byte order.
  const page = wanted.sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0)).slice(0, max);
  const last = page[page.length - 1];
  return { buckets: page, continuationToken: last ? `${OWN_TOKEN}${last.Name}` : undefined };
}
