// ListBuckets paging over an upstream that ignores it (Ceph RGW 16.2 answers every bucket) and
// over one that pages itself (its token passes through, nothing is cut).
import type { ListBucketsInput } from '@vgwrdma/backend-contract';
import { expect, it } from 'vitest';
import { pageBuckets, upstreamToken } from '../../src/ops/bucket-pages.js';

const all = ['b-2', 'a-1', 'b-1', 'c-1', 'b-3'].map((Name) => ({ Name }));

/** Every page an upstream that answers `all` each time gives for `input`, as names. */
function pages(input: ListBucketsInput): string[][] {
  const out: string[][] = [];
  let token: string | undefined;
  do {
    const ask = token === undefined ? input : { ...input, continuationToken: token };
    expect(upstreamToken(ask)).toBeUndefined();
    const page = pageBuckets(all, undefined, ask);
    out.push(page.buckets.map((b) => b.Name));
    token = page.continuationToken;
  } while (token !== undefined && out.length < 10);
  return out;
}

it('cuts an answer of every bucket into max-buckets pages, in name order, and ends', () => {
  expect(pages({ maxBuckets: 2 })).toEqual([['a-1', 'b-1'], ['b-2', 'b-3'], ['c-1']]);
  expect(pages({ maxBuckets: 1, prefix: 'b-' })).toEqual([['b-1'], ['b-2'], ['b-3']]);
  expect(pages({ maxBuckets: 5 })).toEqual([all.map((b) => b.Name)]);
  expect(pages({ prefix: 'c' })).toEqual([['c-1']]);
});

it("passes an upstream's own token through both ways and cuts nothing it paged itself", () => {
  const input = { maxBuckets: 2, continuationToken: 'upstream-token-1' };
  expect(upstreamToken(input)).toBe('upstream-token-1');
  const page = pageBuckets([{ Name: 'x' }, { Name: 'y' }], 'upstream-token-2', input);
  expect(page).toEqual({ buckets: [{ Name: 'x' }, { Name: 'y' }], continuationToken: 'upstream-token-2' });
  expect(pageBuckets([], undefined, {})).toEqual({ buckets: [], continuationToken: undefined });
});
