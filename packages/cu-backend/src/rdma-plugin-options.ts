// The options of rdmaPlugin(), parsed once at the edge: an embedder may call it from plain
// JavaScript or with values read from a file, so every field is checked here and a bad one is
// reported by name ("rdmaPlugin: poolBufCount: ...") before any native resource is created.
import { z } from 'zod';
import { parseIpv4Cidr } from './agent-policy.js';
import type { CuServerConfig } from './open-cu-server.js';

const count = (min: number, max = Number.MAX_SAFE_INTEGER) => z.int().min(min).max(max);

const cidr = z.string().superRefine((value, ctx) => {
  try {
    parseIpv4Cidr(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/** Every CuServerConfig field, with its range; unknown keys are refused (a misspelt option is a bug). */
const optionsSchema = z.strictObject({
  ip: z.string().min(1).optional(),
  transport: z.enum(['softnic', 'cuobj']).optional(),
  port: count(0, 65535).optional(),
  vendorDebug: z.boolean().optional(),
  poolBufSize: count(1),
  poolBufCount: count(1),
  dcKey: z
    .bigint()
    .min(0n)
    .max((1n << 64n) - 1n)
    .optional(),
  numDcis: count(1, 65534).optional(),
  cqDepth: count(1).optional(),
  retryCount: count(0, 7).optional(),
  poolWaitMs: count(0).optional(),
  directPrivileged: z.boolean().optional(),
  getLanes: z.union([z.literal(1), z.literal(2)]).optional(),
  putLanes: z.union([z.literal(1), z.literal(2)]).optional(),
  maxTransferSize: count(1).optional(),
  chunkSize: count(1).optional(),
  allowAgents: z.array(cidr).readonly().optional(),
  transferTimeoutMs: count(1).optional(),
  maxPerAgent: count(1).optional(),
  shimDir: z.string().min(1).optional(),
  ioTimeoutMs: count(1).optional(),
});

/** rdmaPlugin's options: the same fields as openCuServer's config. */
export type RdmaPluginOptions = CuServerConfig;

/** Validates `input`; throws a TypeError naming each bad field. */
export function parseRdmaPluginOptions(input: unknown): RdmaPluginOptions {
  const result = optionsSchema.safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.map(
      (i) => `${i.path.length ? i.path.join('.') : 'options'}: ${i.message}`,
    );
    throw new TypeError(`rdmaPlugin: ${issues.join('; ')}`);
  }
  // zod leaves absent optional keys absent, so the output has no explicit `undefined`s.
  return result.data as RdmaPluginOptions;
}
