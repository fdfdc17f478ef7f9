// The field types every option schema shares, each accepting what a program passes (a number, a
// boolean) and what an operator types (a string from argv or the environment), validated by one
// rule: one boolean spelling, one integer rule, one byte-size parser.
import { z } from 'zod';
import { ByteSizeError, parseByteSize } from './byte-size.js';

/** Booleans as text (environment variables): Go's strconv.ParseBool spellings, plus yes/no/on/off. */
export const booleanText = z.stringbool({
  truthy: ['1', 't', 'true', 'yes', 'y', 'on'],
  falsy: ['0', 'f', 'false', 'no', 'n', 'off', ''],
});

/** `text` as a boolean by the one spelling (case and surrounding spaces ignored), or undefined. */
export function parseBooleanText(text: string): boolean | undefined {
  const parsed = booleanText.safeParse(text.trim().toLowerCase());
  return parsed.success ? parsed.data : undefined;
}

/** A non-empty string. */
export const nonEmpty = z.string().min(1, 'must not be empty');

/**
 * The one integer rule: a safe integer in min..max; as text, decimal digits only (no sign, no
 * exponent, no fraction). The message names the range: `must be 1..65535`, `must be at least 1`.
 */
export function integer(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  const range = max === Number.MAX_SAFE_INTEGER ? `must be at least ${min}` : `must be ${min}..${max}`;
  return z.union([z.number(), z.string()]).transform((value, ctx) => {
    if (typeof value === 'string' && !/^\d+$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a decimal integer' });
      return z.NEVER;
    }
    const n = Number(value);
    if (!Number.isSafeInteger(n)) {
      ctx.addIssue({ code: 'custom', message: 'must be an integer' });
      return z.NEVER;
    }
    if (n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: range });
      return z.NEVER;
    }
    return n;
  });
}

/** Bytes by the one byte-size rule (byte-size.ts): 67108864, 64MiB, 64M, 64MB, 1GiB; a number as is. */
export function byteSize(min = 1, max: number = Number.MAX_SAFE_INTEGER) {
  return z.union([z.number(), z.string()]).transform((value, ctx) => {
    try {
      return parseByteSize(String(value), { min, max });
    } catch (error) {
      if (!(error instanceof ByteSizeError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  });
}

/** File and socket permissions: octal as `0755`, `755` or `0o755`. */
export const octalMode = z
  .string()
  .regex(/^(0o?)?[0-7]{1,4}$/i, 'must be octal permissions such as 0755')
  .transform((value) => Number.parseInt(value.replace(/^0o/i, ''), 8));
