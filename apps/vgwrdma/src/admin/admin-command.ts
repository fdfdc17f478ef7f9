// `vgwrdma admin [connection flags] <verb> [verb flags]`: parse both levels (bad flags are a
// UsageError naming the flag, exit status 2), send the verb's signed call, print its answer as a
// table or, with --json, as JSON on stdout. A gateway that cannot be reached, or that refuses
// (the S3 error code and message are printed), is exit status 1.
import { parseArgs } from 'node:util';
import {
  cliOptions,
  type Env,
  helpLines,
  parseArgv,
  parserOptions,
  resolveOptions,
} from '@vgwrdma/cli-options';
import { UsageError } from '@vgwrdma/errors';
import type { z } from 'zod';
import { type AdminConnection, adminCall, UnreachableError } from './admin-client.js';
import { ADMIN_SCHEMA } from './admin-flags.js';

const ADMIN_FLAGS = cliOptions(ADMIN_SCHEMA);

import { ADMIN_VERBS, type AdminVerb } from './admin-verbs.js';
import { parseError } from './admin-xml.js';
import { longFormAliases } from './argv-aliases.js';
import { isUntrustedCertificate, readCaBundle, untrustedAdvice } from './tls-trust.js';

export interface AdminIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

const TIMEOUT_MS = 15_000;

export function adminUsage(): string {
  const verbs = Object.entries(ADMIN_VERBS)
    .map(([name, v]) => `  ${name.padEnd(21)}${v.help}`)
    .join('\n');
  return `vgwrdma admin - manage the accounts and bucket owners of a running gateway (--iam-dir)

Usage:
  vgwrdma admin [flags] <command> [command flags]
  vgwrdma admin <command> --help

Commands:
${verbs}

Flags:
${helpLines(ADMIN_FLAGS)}
`;
}

function verbUsage(name: string, verb: AdminVerb): string {
  const required = verb.required.map((f) => `--${f}`).join(', ');
  return `vgwrdma admin ${name} - ${verb.help}

Usage:
  vgwrdma admin [flags] ${name} [command flags]${required === '' ? '' : `\n\nRequired: ${required}`}

Command flags:
${helpLines(cliOptions(verb.flags))}
`;
}

function parseLevel(args: readonly string[], schema: z.ZodObject, positionals: boolean) {
  const flags = cliOptions(schema);
  return parseArgv(longFormAliases(args, flags), parserOptions(flags), positionals);
}

type Parsed =
  | { readonly kind: 'help'; readonly text: string }
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly verb: AdminVerb;
      readonly values: Readonly<Record<string, unknown>>;
      readonly conn: AdminConnection;
      readonly json: boolean;
    };

export function parseAdminCommandLine(argv: readonly string[], env: Env): Parsed {
  // The verb is the first positional word: flags before it are the connection's.
  const { tokens } = parseArgs({
    args: longFormAliases(argv, ADMIN_FLAGS),
    options: parserOptions(ADMIN_FLAGS),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((t) => t.kind === 'positional');
  const globalArgs = first === undefined ? argv : argv.slice(0, first.index);
  const g0 = parseLevel(globalArgs, ADMIN_SCHEMA, false);
  if (g0.values.help === true) return { kind: 'help', text: adminUsage() };
  if (first?.kind !== 'positional') {
    throw new UsageError(`no admin command given (available: ${Object.keys(ADMIN_VERBS).join(', ')})`);
  }
  const name = first.value;
  const verb = Object.hasOwn(ADMIN_VERBS, name) ? ADMIN_VERBS[name] : undefined;
  if (verb === undefined) {
    throw new UsageError(
      `unknown admin command "${name}" (available: ${Object.keys(ADMIN_VERBS).join(', ')})`,
    );
  }
  const v0 = parseLevel(argv.slice(first.index + 1), verb.flags, true);
  if (v0.values.help === true) return { kind: 'help', text: verbUsage(name, verb) };
  if (v0.positionals.length > 0) throw new UsageError(`unexpected argument(s): ${v0.positionals.join(' ')}`);
  const g = resolveOptions(ADMIN_SCHEMA, g0.values, env);
  const values: Record<string, unknown> = resolveOptions(verb.flags, v0.values, {});
  const missing = verb.required.filter((f) => values[f] === undefined);
  if (missing.length > 0) {
    throw new UsageError(`${name} needs ${missing.map((f) => describe(verb, f)).join(' and ')}`);
  }
  if (g.access === undefined || g.secret === undefined) {
    throw new UsageError(
      'admin credentials must be provided: pass --access/-a and --secret/-s before the command, or set ' +
        'ADMIN_ACCESS_KEY_ID and ADMIN_SECRET_ACCESS_KEY',
    );
  }
  return {
    kind: 'call',
    name,
    verb,
    values,
    json: g.json || values.json === true,
    conn: {
      endpoint: new URL(g['endpoint-url']),
      access: g.access,
      secret: g.secret,
      region: g.region,
      allowInsecure: g['allow-insecure'],
      ...(g['ca-bundle'] === undefined ? {} : { ca: caBundle(g['ca-bundle']) }),
      timeoutMs: TIMEOUT_MS,
    },
  };
}

/** --ca-bundle's file; one that cannot be read is a usage error naming it. */
function caBundle(file: string): Buffer {
  try {
    return readCaBundle(file);
  } catch (e) {
    throw new UsageError(`--ca-bundle ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

function describe(verb: AdminVerb, flag: string): string {
  const spec = cliOptions(verb.flags).find((f) => f.name === flag);
  return spec?.short ? `--${flag} (-${spec.short})` : `--${flag}`;
}

export async function runAdmin(argv: readonly string[], env: Env, io: AdminIO): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseAdminCommandLine(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`vgwrdma admin: ${error.message}\nRun 'vgwrdma admin --help' for usage.\n`);
    return error.exitCode;
  }
  if (parsed.kind === 'help') {
    io.stdout.write(parsed.text);
    return 0;
  }
  const { name, verb, values, conn } = parsed;
  try {
    const answer = await adminCall(conn, verb.call(values));
    if (answer.status >= 300) {
      const err = parseError(answer.text);
      const what = err ? `${err.code}${err.message === '' ? '' : `: ${err.message}`}` : answer.text.trim();
      io.stderr.write(
        `vgwrdma admin: ${name} refused by ${conn.endpoint.origin} (HTTP ${answer.status}) ${what}\n`,
      );
      return 1;
    }
    const out = verb.show(values, answer.text);
    io.stdout.write(parsed.json ? `${JSON.stringify(out.json, null, 2)}\n` : out.text);
    return 0;
  } catch (error) {
    if (!(error instanceof UnreachableError)) throw error;
    if (isUntrustedCertificate(error.nodeCode)) {
      io.stderr.write(`vgwrdma admin: ${error.endpoint}: ${untrustedAdvice(error.nodeCode as string)}\n`);
      return 1;
    }
    io.stderr.write(
      `vgwrdma admin: ${error.message}; is the gateway running there? (check --endpoint-url)\n`,
    );
    return 1;
  }
}
