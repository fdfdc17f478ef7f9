// The options of gateway-child.mjs, checked once when it starts (a typo in a test's options should
// fail loudly, naming the field, not start a gateway with a default). Defaults suit tests: 4
// channels, 4 buffers of 16 MiB, 30 s pool wait, 10 s socket timeout.
import { z } from 'zod';

const MiB = 1024 * 1024;
const positive = z.int().positive();

const backend = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('posix'),
    root: z.string().min(1),
    /** The parts ETag mode's part size (absent: md5 mode). */
    etagPartSize: positive.optional(),
  }),
  z.strictObject({
    kind: z.literal('s3'),
    endpoint: z.url(),
    access: z.string().min(1),
    secret: z.string().min(1),
    metaBucket: z.string().min(1).optional(),
  }),
]);

const rdma = z.strictObject({
  channels: positive.default(4),
  ioTimeoutMs: positive.default(10_000),
  pool: z.strictObject({ count: positive, size: positive }).default({ count: 4, size: 16 * MiB }),
  poolWaitMs: z.int().nonnegative().default(30_000),
  maxTransferSize: positive.optional(),
  putLanes: z.union([z.literal(1), z.literal(2)]).optional(),
  maxPerAgent: positive.optional(), // the plugin checks its range
});

const schema = z.strictObject({
  /** The gateway's one (admin) credential. */
  access: z.string().min(1),
  secret: z.string().min(1),
  backend,
  /** false: a plain gateway, no RDMA plugin. */
  rdma: z.union([z.literal(false), rdma]).default(() => rdma.parse({})),
});

/** Validated options with defaults filled in; throws an Error naming each bad field. */
export function parseGatewayChildOptions(input) {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`);
  throw new Error(`bad options: ${issues.join('; ')}`);
}
