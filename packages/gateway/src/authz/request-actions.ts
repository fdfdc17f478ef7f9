// The actions S3 evaluates for one object request besides the one its route names: a versionId
// turns the action into its *Version variant, and some headers need a permission of their own
// (governance bypass on deletes and retention changes; object-lock retention and legal hold set
// by a write). A copy reads its source with s3:GetObject, or s3:GetObjectVersion for a version.
import { header, type RawHeaders } from '../http/headers.js';
import type { RouteShape } from './anonymous-refusals.js';
import { createsObject } from './write-options.js';

/** The action checked instead of the route's when the request names a version. */
// biome-ignore format: a table reads best one row per line
const VERSIONED: ReadonlyMap<string, string> = new Map([
  ['s3:GetObject', 's3:GetObjectVersion'], // GET and HEAD
  ['s3:DeleteObject', 's3:DeleteObjectVersion'],
  ['s3:GetObjectTagging', 's3:GetObjectVersionTagging'],
  ['s3:PutObjectTagging', 's3:PutObjectVersionTagging'],
  ['s3:DeleteObjectTagging', 's3:DeleteObjectVersionTagging'],
  ['s3:GetObjectAcl', 's3:GetObjectVersionAcl'],
  ['s3:PutObjectAcl', 's3:PutObjectVersionAcl'],
  ['s3:GetObjectAttributes', 's3:GetObjectVersionAttributes'],
]);

interface HeaderRule {
  readonly header: string;
  /** The routes on which the header has an effect (and so needs the permission). */
  readonly on: (route: RouteShape) => boolean;
  /** Whether the value asks for the effect. */
  readonly asks: (value: string) => boolean;
  readonly action: string;
}

/** DeleteObject, DeleteObjects (per key) and PutObjectRetention. */
const removesProtection = (r: RouteShape) =>
  r.action === 's3:DeleteObject' || r.action === 's3:PutObjectRetention';
// The handlers' reading of the bypass header: only 'true' (any case) bypasses.
const isTrue = (v: string) => v.toLowerCase() === 'true';
const any = () => true;

// biome-ignore format: a table reads best one row per line
const HEADER_RULES: readonly HeaderRule[] = [
  { header: 'x-amz-bypass-governance-retention', on: removesProtection, asks: isTrue, action: 's3:BypassGovernanceRetention' },
  { header: 'x-amz-object-lock-mode', on: createsObject, asks: any, action: 's3:PutObjectRetention' },
  { header: 'x-amz-object-lock-retain-until-date', on: createsObject, asks: any, action: 's3:PutObjectRetention' },
  { header: 'x-amz-object-lock-legal-hold', on: createsObject, asks: any, action: 's3:PutObjectLegalHold' },
];

/**
 * Every action a request on one object is checked for: its route's (or that action's version
 * variant when `versioned`), then those its headers ask for. All must be allowed.
 */
export function objectActions(route: RouteShape, headers: RawHeaders, versioned: boolean): string[] {
  const base = versioned ? (VERSIONED.get(route.action) ?? route.action) : route.action;
  const extra = HEADER_RULES.filter((rule) => {
    const value = header(headers, rule.header);
    return value !== undefined && rule.on(route) && rule.asks(value);
  }).map((rule) => rule.action);
  return [...new Set([base, ...extra])];
}

/** What reading a copy source needs. */
export function copySourceAction(versionId: string | undefined): string {
  return versionId === undefined ? 's3:GetObject' : 's3:GetObjectVersion';
}
