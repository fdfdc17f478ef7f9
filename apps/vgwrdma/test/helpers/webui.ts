// What the web console's tests share: the console's URL from the banner, and making a user
// account through the admin API (the body's SHA-256 signed, as the admin API wants it).
import { type Credentials, ROOT_CREDENTIALS, sha256Hex, signHeaders } from '@vgwrdma/test-kit';

/** The banner's `webui:` line: the console's URL. */
export function webuiUrl(stdout: string): string {
  const m = /^\s*webui:\s+(\S+?)\/? \(web console\)$/m.exec(stdout);
  if (!m?.[1]) throw new Error(`no webui line in the banner:\n${stdout}`);
  return m[1];
}

/** PATCH /create-user (role user) as root; resolves with the status. */
export async function createUser(s3Url: string, user: Credentials): Promise<number> {
  const body = `<Account><Access>${user.access}</Access><Secret>${user.secret}</Secret><Role>user</Role></Account>`;
  const headers = await signHeaders({
    baseUrl: s3Url,
    credentials: ROOT_CREDENTIALS,
    method: 'PATCH',
    path: '/create-user',
    payloadHash: sha256Hex(body),
  });
  const res = await fetch(new URL('/create-user', s3Url), { method: 'PATCH', headers, body });
  return res.status;
}
