// Users (admin accounts only; the gateway refuses the admin API to anyone else anyway): list
// accounts, create one, change a role, delete one, and hand a bucket to another owner. Secrets
// are typed once at creation and never shown: list answers are read for keys and roles only.
import {
  changeBucketOwner,
  changeRole,
  createUser,
  deleteUser,
  listBucketOwners,
  listUsers,
  ROLES,
  type Role,
} from '../admin.js';
import { h, replace, table } from '../dom.js';
import { attempt, field, heading, showError } from '../ui.js';

const roleSelect = (id: string, value: string) =>
  h('select', { id }, ...ROLES.map((r) => h('option', { value: r, selected: r === value }, r)));

export async function usersPage(main: HTMLElement): Promise<undefined> {
  const errors = h('div', { class: 'errors' });
  const users = h('div', {});
  const owners = h('div', {});
  const access = h('input', { id: 'new-user-access', spellcheck: 'false', autocomplete: 'off' });
  const secret = h('input', { id: 'new-user-secret', type: 'password', autocomplete: 'new-password' });
  const role = roleSelect('new-user-role', 'user');
  const inline = h('span', { class: 'inline-error', id: 'new-user-error' });
  const form = h(
    'form',
    { class: 'card row', id: 'create-user' },
    field('Access key', access),
    field('Secret key', secret),
    field('Role', role),
    h('button', { type: 'submit' }, 'Create user'),
    inline,
  );

  /**
   * A row's button: runs `change`, then shows the tables again; a failure goes to the page's error
   * slot. With `confirmText` it is a "danger" button that asks confirm() first (no: nothing happens).
   */
  const changeButton = (label: string, change: () => Promise<void>, confirmText?: string) =>
    h(
      'button',
      {
        type: 'button',
        class: confirmText === undefined ? undefined : 'danger',
        onclick: () =>
          void attempt(errors, async () => {
            if (confirmText !== undefined && !confirm(confirmText)) return;
            await change();
            await refresh();
          }),
      },
      label,
    );

  const refresh = async () => {
    const [list, buckets] = await Promise.all([listUsers(), listBucketOwners()]);
    const names = list.map((u) => u.access);
    replace(
      users,
      table(
        ['access key', 'role', 'name', ''],
        list.map((u) => {
          const select = roleSelect(`role-${u.access}`, u.role);
          return [
            u.access,
            h(
              'span',
              { class: 'row' },
              select,
              changeButton('Change role', () => changeRole(u.access, select.value as Role)),
            ),
            u.displayName || u.email,
            changeButton('Delete', () => deleteUser(u.access), `Delete the user "${u.access}"?`),
          ];
        }),
        { id: 'users-table' },
      ),
    );
    replace(
      owners,
      table(
        ['bucket', 'owner', 'new owner'],
        buckets.map((b) => {
          const select = h(
            'select',
            {},
            ...[...new Set([b.owner, ...names])].map((n) =>
              h('option', { value: n, selected: n === b.owner }, n),
            ),
          );
          return [
            b.name,
            b.owner,
            h(
              'span',
              { class: 'row' },
              select,
              changeButton('Change owner', () => changeBucketOwner(b.name, select.value)),
            ),
          ];
        }),
        { id: 'owners-table' },
      ),
    );
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    inline.textContent =
      access.value.trim() === '' || secret.value === '' ? 'An access key and a secret are both needed.' : '';
    if (inline.textContent !== '') return;
    void attempt(errors, async () => {
      await createUser(access.value.trim(), secret.value, role.value as Role);
      access.value = '';
      secret.value = '';
      await refresh();
    });
  });

  main.append(
    heading('Users'),
    form,
    errors,
    h('h2', {}, 'Accounts'),
    users,
    h('h2', {}, 'Bucket owners'),
    owners,
  );
  try {
    await refresh();
  } catch (error) {
    showError(errors, error);
  }
  return undefined;
}
