// The one matcher over the route table: method + target + sub-resource (+ selector header)
// picks exactly one row. Rows naming a header win over rows that do not, so UploadPartCopy and
// CopyObject sit beside UploadPart and PutObject without ordering tricks.
import { S3Error } from '@vgwrdma/backend-contract';
import type { RawHeaders } from '../http/headers.js';
import {
  type RouteMethod,
  type RouteRow,
  type RouteTarget,
  SUBRESOURCES,
  type Subresource,
} from './types.js';

export function subresourceOf(query: URLSearchParams): Subresource | undefined {
  return SUBRESOURCES.find((s) => query.has(s));
}

interface RouteMatcher {
  match(method: string, target: RouteTarget, query: URLSearchParams, headers: RawHeaders): RouteRow;
}

export function createMatcher(rows: readonly RouteRow[]): RouteMatcher {
  // Index by "METHOD target subresource" once; each bucket holds header rows first.
  const index = new Map<string, RouteRow[]>();
  for (const row of rows) {
    const k = keyOf(row.method, row.target, row.subresource);
    const list = index.get(k) ?? [];
    list.push(row);
    list.sort((a, b) => Number(b.header !== undefined) - Number(a.header !== undefined));
    index.set(k, list);
  }
  const methods = new Set<string>(rows.map((r) => r.method));
  return {
    match(method, target, query, headers) {
      if (!methods.has(method)) throw new S3Error('MethodNotAllowed');
      const candidates = index.get(keyOf(method as RouteMethod, target, subresourceOf(query))) ?? [];
      const row = candidates.find((r) => r.header === undefined || headers[r.header] !== undefined);
      if (!row) throw new S3Error('NotImplemented');
      return row;
    },
  };
}

function keyOf(method: RouteMethod, target: RouteTarget, sub: Subresource | undefined): string {
  return `${method} ${target} ${sub ?? ''}`;
}
