// Buckets: the signed-in account's buckets (ListBuckets), creating one (with versioning or object
// lock), deleting an empty one — a bucket with objects is refused by the gateway (BucketNotEmpty)
// and the page says so plainly — and links to its objects and its settings.
import { h, replace, table } from '../dom.js';
import { S3ApiError } from '../errors.js';
import { createBucket, deleteBucket, listBuckets } from '../s3-ops.js';
import { attempt, field, heading, showError } from '../ui.js';

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export async function bucketsPage(main: HTMLElement): Promise<undefined> {
  const errors = h('div', { class: 'errors' });
  const list = h('div', {});
  const name = h('input', { id: 'new-bucket', placeholder: 'new-bucket-name', spellcheck: 'false' });
  const versioning = h('input', { type: 'checkbox', id: 'new-versioning' });
  const lock = h('input', { type: 'checkbox', id: 'new-object-lock' });
  const nameError = h('span', { class: 'inline-error', id: 'new-bucket-error' });
  const create = h(
    'form',
    { class: 'card row', id: 'create-bucket' },
    field('Bucket name', name),
    h('label', { class: 'check' }, versioning, ' Versioning'),
    h('label', { class: 'check' }, lock, ' Object lock (turns versioning on)'),
    h('button', { type: 'submit' }, 'Create bucket'),
    nameError,
  );
  create.addEventListener('submit', (event) => {
    event.preventDefault();
    const bucket = name.value.trim();
    nameError.textContent =
      BUCKET_NAME.test(bucket) && !bucket.includes('..')
        ? ''
        : 'Bucket names are 3-63 characters: lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit.';
    if (nameError.textContent !== '') return;
    void attempt(errors, async () => {
      try {
        await createBucket(bucket, { versioning: versioning.checked, objectLock: lock.checked });
        name.value = '';
      } finally {
        // The bucket may exist even when turning versioning on failed afterwards.
        await refresh().catch(() => {});
      }
    });
  });

  const remove = (bucket: string) =>
    attempt(errors, async () => {
      if (!confirm(`Delete the bucket "${bucket}"? Only an empty bucket can be deleted.`)) return;
      try {
        await deleteBucket(bucket);
      } catch (error) {
        if (error instanceof S3ApiError && error.s3Code === 'BucketNotEmpty')
          throw new S3ApiError(
            error.s3Code,
            `"${bucket}" still holds objects (or object versions): delete them first, then the bucket. ${error.message}`,
            error.status,
          );
        throw error;
      }
      await refresh();
    });

  const refresh = async () => {
    const buckets = await listBuckets();
    replace(
      list,
      buckets.length === 0
        ? h('p', { class: 'muted' }, 'No buckets yet.')
        : table(
            ['bucket', 'created', ''],
            buckets.map((b) => [
              h('a', { href: `#/browse/${encodeURIComponent(b.name)}`, class: 'bucket-link' }, b.name),
              b.created,
              h(
                'span',
                { class: 'actions' },
                h('a', { href: `#/bucket/${encodeURIComponent(b.name)}` }, 'Settings'),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'danger',
                    'data-delete-bucket': b.name,
                    onclick: () => void remove(b.name),
                  },
                  'Delete',
                ),
              ),
            ]),
            { id: 'bucket-list' },
          ),
    );
  };
  main.append(heading('Buckets'), create, errors, list);
  try {
    await refresh();
  } catch (error) {
    showError(errors, error);
  }
  return undefined;
}
