// A program's options object (not a command line) checked by a package's schema: every bad field
// is named in one InvalidArgumentError (VGW_ERR_INVALID_ARGUMENT), prefixed with the function that
// took it ("rdmaPlugin: poolBufCount: must be 1..1024"), before anything is built.
import { InvalidArgumentError } from '@vgwrdma/errors';
import type { z } from 'zod';

export function checkOptions<S extends z.ZodType>(schema: S, input: unknown, taker: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map(
    (i) => `${i.path.length ? i.path.join('.') : 'options'}: ${i.message}`,
  );
  throw new InvalidArgumentError(`${taker}: ${issues.join('; ')}`);
}
