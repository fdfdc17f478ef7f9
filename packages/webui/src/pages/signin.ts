// Sign-in: access key and secret, checked by a signed ListBuckets before anything else is shown
// (a wrong secret is refused here with the gateway's own error). The stats endpoint, admin-only,
// tells whether to offer the admin pages. "Remember for this tab" keeps the keys in
// sessionStorage; otherwise they live only in this page's memory.
import { fetchStats } from '../admin.js';
import { config } from '../config.js';
import { h } from '../dom.js';
import { S3ApiError } from '../errors.js';
import { listBuckets } from '../s3-ops.js';
import { session, setSession, signOut } from '../session.js';
import { field, showError } from '../ui.js';

/** Proves the current keys work, then learns whether the account is an admin. */
export async function verifySession(): Promise<void> {
  const s = session();
  if (s === undefined) throw new Error('not signed in');
  await listBuckets();
  try {
    await fetchStats();
    s.admin = true;
  } catch (error) {
    if (!(error instanceof S3ApiError) || error.status !== 403) throw error;
    s.admin = false;
  }
}

export function signInPage(done: () => void, reason?: string): HTMLElement {
  const access = h('input', {
    name: 'access',
    id: 'access-key',
    autocomplete: 'username',
    required: true,
    spellcheck: 'false',
  });
  const secret = h('input', {
    name: 'secret',
    id: 'secret-key',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const remember = h('input', { type: 'checkbox', id: 'remember' });
  const errors = h('div', { class: 'errors' });
  const button = h('button', { type: 'submit', id: 'sign-in' }, 'Sign in');
  const form = h(
    'form',
    { class: 'signin card', novalidate: true },
    h('h1', {}, 'vgwrdma console'),
    h(
      'p',
      { class: 'muted' },
      `Gateway ${config().version}, region ${config().region}. Your keys stay in this tab.`,
    ),
    reason === undefined ? null : h('p', { class: 'notice' }, `Please sign in again (${reason}).`),
    field('Access key', access),
    field('Secret key', secret),
    h('label', { class: 'check' }, remember, ' Remember for this tab'),
    button,
    errors,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    setSession({ accessKeyId: access.value.trim(), secretAccessKey: secret.value, admin: false }, false);
    verifySession()
      .then(() => {
        const s = session();
        if (s) setSession(s, remember.checked);
        secret.value = '';
        if (location.hash === '' || location.hash === '#/') location.hash = '#/buckets';
        done();
      })
      .catch((error: unknown) => {
        signOut();
        showError(errors, error);
      })
      .finally(() => {
        button.disabled = false;
      });
  });
  return h('div', { class: 'center' }, form);
}
