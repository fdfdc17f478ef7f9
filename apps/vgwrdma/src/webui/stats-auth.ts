// Who may read the console's stats: a request signed in the browser with SigV4 (Authorization
// header) by an admin account, checked by the gateway's own authenticator against its own
// account store — the same code and accounts as the S3 port. The request has no body, so the
// signed payload hash must be the empty string's (an UNSIGNED-PAYLOAD claim is refused).
// Answers the account, or the S3 error to send back.
import type { IncomingMessage } from 'node:http';
import { S3Error } from '@vgwrdma/backend-contract';
import { authenticate, type CredentialStore, EMPTY_SHA256 } from '@vgwrdma/gateway';

export interface StatsAuthOptions {
  readonly credentials: CredentialStore;
  readonly region: string;
}

export type StatsAuthResult =
  | { readonly ok: true; readonly access: string }
  | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string };

const refuse = (e: S3Error): StatsAuthResult => ({
  ok: false,
  status: e.status,
  code: e.code,
  message: e.message,
});

export async function authorizeStats(req: IncomingMessage, opts: StatsAuthOptions): Promise<StatsAuthResult> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  try {
    if ((req.headers.authorization ?? '').trim() === '')
      return refuse(S3Error.custom('AccessDenied', 'The console stats need a SigV4-signed request.'));
    const auth = await authenticate(
      {
        method: (req.method ?? 'GET').toUpperCase(),
        rawPath: q < 0 ? url : url.slice(0, q),
        rawQuery: q < 0 ? '' : url.slice(q + 1),
        headers: req.headers,
      },
      opts.credentials,
      { region: opts.region },
    );
    if (auth.payload.kind !== 'signed' || auth.payload.sha256 !== EMPTY_SHA256)
      return refuse(S3Error.custom('AccessDenied', 'The console stats need a signed empty-payload hash.'));
    if (auth.anonymous || auth.account.role !== 'admin') return refuse(new S3Error('XAdminAccessDenied'));
    return { ok: true, access: auth.accessKey };
  } catch (error) {
    if (error instanceof S3Error) return refuse(error);
    throw error;
  }
}
