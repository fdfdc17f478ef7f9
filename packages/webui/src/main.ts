// The console's entry: loads where the gateway is (api/config.json), restores a tab-remembered
// sign-in, draws the frame (navigation: dashboard, buckets, users for admins) and routes by the
// URL's hash to a page. Pages render into the main element and may return a cleanup function.
import './styles.css';
import { loadConfig } from './config.js';
import { h, replace } from './dom.js';
import { bucketSettingsPage } from './pages/bucket-settings.js';
import { bucketsPage } from './pages/buckets.js';
import { dashboardPage } from './pages/dashboard.js';
import { explorerPage } from './pages/explorer.js';
import { signInPage, verifySession } from './pages/signin.js';
import { usersPage } from './pages/users.js';
import { restoreSession, session, signOut } from './session.js';
import { errorBox, onSignInAgain } from './ui.js';

export type Page = (
  main: HTMLElement,
  args: string[],
) => Promise<(() => void) | undefined> | (() => void) | undefined;

const ROUTES: Readonly<Record<string, { page: Page; admin?: boolean }>> = {
  dashboard: { page: dashboardPage },
  buckets: { page: bucketsPage },
  bucket: { page: bucketSettingsPage },
  browse: { page: explorerPage },
  users: { page: usersPage, admin: true },
};

const app = document.getElementById('app') as HTMLElement;
let cleanup: (() => void) | undefined;

function nav(): HTMLElement {
  const s = session();
  const page = location.hash.replace(/^#\/?/, '').split('/')[0] || 'dashboard';
  const section = page === 'browse' || page === 'bucket' ? 'buckets' : page;
  const link = (hash: string, text: string) =>
    h('a', { href: `#/${hash}`, class: section === hash ? 'active' : '', 'data-nav': hash }, text);
  return h(
    'header',
    { class: 'top' },
    h('span', { class: 'brand' }, 'vgwrdma'),
    h(
      'nav',
      {},
      link('dashboard', 'Dashboard'),
      link('buckets', 'Buckets'),
      s?.admin ? link('users', 'Users') : null,
    ),
    h('span', { class: 'who' }, s ? `${s.accessKeyId}${s.admin ? ' (admin)' : ''}` : ''),
    h(
      'button',
      {
        type: 'button',
        class: 'link',
        id: 'sign-out',
        onclick: () => {
          signOut();
          void route();
        },
      },
      'Sign out',
    ),
  );
}

async function route(reason?: string): Promise<void> {
  cleanup?.();
  cleanup = undefined;
  if (session() === undefined) {
    replace(
      app,
      signInPage(() => void route(), reason),
    );
    return;
  }
  const [name = 'dashboard', ...args] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const target = ROUTES[name] ?? ROUTES.dashboard;
  const main = h('main', {});
  replace(app, nav(), main);
  if (target === undefined) return;
  if (target.admin && !session()?.admin) {
    replace(main, h('p', { class: 'notice' }, 'This page is for admin accounts only.'));
    return;
  }
  try {
    cleanup = (await target.page(main, args)) ?? undefined;
  } catch (error) {
    main.append(errorBox(error));
  }
}

async function start(): Promise<void> {
  try {
    await loadConfig();
  } catch (error) {
    replace(app, errorBox(error));
    return;
  }
  onSignInAgain((reason) => {
    signOut();
    void route(reason);
  });
  window.addEventListener('hashchange', () => void route());
  if (restoreSession() !== undefined) {
    try {
      await verifySession();
    } catch {
      signOut();
    }
  }
  await route();
}

void start();
