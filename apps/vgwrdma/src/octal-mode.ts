// File and socket permissions on the command line: octal as `0755`, `755` or `0o755`.
import { z } from 'zod';

export const octalMode = z
  .string()
  .regex(/^(0o?)?[0-7]{1,4}$/i, 'must be octal permissions such as 0755')
  .transform((value) => Number.parseInt(value.replace(/^0o/i, ''), 8));
