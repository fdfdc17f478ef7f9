// The signed-in user's keys. They live in this tab's memory; with "remember for this tab" also in
// sessionStorage (gone when the tab closes). Never a cookie, never a URL, never logged.

export interface Session {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Set after sign-in: whether the account may use the admin API (dashboard stats, users). */
  admin: boolean;
}

const KEY = 'vgwrdma-console-session';
let current: Session | undefined;

export function session(): Session | undefined {
  return current;
}

export function setSession(s: Session, remember: boolean): void {
  current = s;
  if (remember) sessionStorage.setItem(KEY, JSON.stringify({ a: s.accessKeyId, s: s.secretAccessKey }));
  else if (typeof sessionStorage !== 'undefined') sessionStorage.removeItem(KEY);
}

export function restoreSession(): Session | undefined {
  const raw = sessionStorage.getItem(KEY);
  if (raw === null) return undefined;
  try {
    const v = JSON.parse(raw) as { a?: unknown; s?: unknown };
    if (typeof v.a === 'string' && typeof v.s === 'string') {
      current = { accessKeyId: v.a, secretAccessKey: v.s, admin: false };
      return current;
    }
  } catch {
    // a damaged entry is dropped below
  }
  sessionStorage.removeItem(KEY);
  return undefined;
}

export function signOut(): void {
  current = undefined;
  sessionStorage.removeItem(KEY);
}
