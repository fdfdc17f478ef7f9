// One object's details in the explorer: its metadata (HeadObject), tags (view and edit), its
// versions when the bucket keeps them (each deletable), a presigned GET URL with an expiry picker,
// and download. Every value is shown as text.
import { InvalidArgumentError } from '@vgwrdma/errors';
import { formatBytes, h, replace, table } from '../dom.js';
import { pathOf, s3Base } from '../s3.js';
import {
  deleteObject,
  getObjectTags,
  headObject,
  listVersions,
  putObjectTags,
  type TagSet,
} from '../s3-ops.js';
import { awsEncode, presignedUrl } from '../sign.js';
import { attempt } from '../ui.js';

const EXPIRIES: readonly [string, number][] = [
  ['15 minutes', 900],
  ['1 hour', 3600],
  ['1 day', 86_400],
  ['7 days', 604_800],
];

/** A presigned GET that the browser saves as a file named after the key's last segment. */
export function downloadUrl(
  bucket: string,
  key: string,
  expiresIn = 300,
  versionId?: string,
): Promise<string> {
  const name = key.split('/').pop() || 'download';
  return presignedUrl(
    {
      method: 'GET',
      base: s3Base(),
      path: pathOf(bucket, key),
      query: {
        'response-content-disposition': `attachment; filename*=UTF-8''${awsEncode(name)}`,
        ...(versionId === undefined ? {} : { versionId }),
      },
    },
    expiresIn,
  );
}

/** Starts a download of the object (a navigation to a presigned URL; the page stays). */
export async function download(bucket: string, key: string, versionId?: string): Promise<void> {
  const a = h('a', { href: await downloadUrl(bucket, key, 300, versionId), rel: 'noreferrer' });
  document.body.append(a);
  a.click();
  a.remove();
}

export function objectPanel(
  bucket: string,
  key: string,
  versioned: boolean,
  onChanged: () => void,
): HTMLElement {
  const errors = h('div', { class: 'errors' });
  const meta = h('div', { id: 'object-meta' });
  const tagsArea = h('textarea', { id: 'object-tags', rows: 4, spellcheck: 'false' });
  const versions = h('div', { id: 'object-versions' });
  const expiry = h(
    'select',
    { id: 'presign-expiry' },
    ...EXPIRIES.map(([label, s]) => h('option', { value: String(s) }, label)),
  );
  const url = h('input', { id: 'presigned-url', readonly: true, placeholder: 'presigned URL appears here' });

  const load = () =>
    attempt(errors, async () => {
      const head = await headObject(bucket, key);
      replace(
        meta,
        table(
          ['field', 'value'],
          [
            ['key', key],
            ['size', `${formatBytes(head.size)} (${head.size} bytes)`],
            ['content type', head.type],
            ['ETag', head.etag],
            ['last modified', head.modified],
            ['version', head.versionId ?? '–'],
            ...head.metadata.map(([k, v]) => [`x-amz-meta-${k}`, v]),
          ],
          { id: 'meta-table' },
        ),
      );
      tagsArea.value = (await getObjectTags(bucket, key)).map(([k, v]) => `${k}=${v}`).join('\n');
      if (versioned) {
        const rows = await listVersions(bucket, key);
        replace(
          versions,
          table(
            ['version', 'modified', 'size', ''],
            rows.map((v) => [
              `${v.versionId}${v.latest ? ' (latest)' : ''}${v.deleteMarker ? ' (delete marker)' : ''}`,
              v.modified,
              v.deleteMarker ? '–' : formatBytes(v.size),
              h(
                'span',
                { class: 'actions' },
                v.deleteMarker
                  ? null
                  : h(
                      'button',
                      {
                        type: 'button',
                        onclick: () => void attempt(errors, () => download(bucket, key, v.versionId)),
                      },
                      'Download',
                    ),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'danger',
                    onclick: () =>
                      void attempt(errors, async () => {
                        if (!confirm(`Delete version ${v.versionId} of "${key}" for good?`)) return;
                        await deleteObject(bucket, key, v.versionId);
                        onChanged();
                        await load();
                      }),
                  },
                  'Delete version',
                ),
              ),
            ]),
            { id: 'versions-table' },
          ),
        );
      }
    });

  const saveTags = () =>
    void attempt(errors, async () => {
      const tags: TagSet = tagsArea.value
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => {
          const eq = l.indexOf('=');
          if (eq <= 0) throw new InvalidArgumentError(`"${l}" is not key=value`);
          return [l.slice(0, eq).trim(), l.slice(eq + 1).trim()];
        });
      await putObjectTags(bucket, key, tags);
    });

  const presign = () =>
    void attempt(errors, async () => {
      url.value = await downloadUrl(bucket, key, Number(expiry.value));
    });

  void load();
  return h(
    'section',
    { class: 'card panel', id: 'object-panel' },
    h('h2', {}, 'Object ', h('code', {}, key)),
    errors,
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          type: 'button',
          id: 'panel-download',
          onclick: () => void attempt(errors, () => download(bucket, key)),
        },
        'Download',
      ),
    ),
    h('h3', {}, 'Metadata'),
    meta,
    h('h3', {}, 'Tags (key=value per line)'),
    tagsArea,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', id: 'tags-save', onclick: saveTags }, 'Save tags'),
    ),
    versioned ? h('h3', {}, 'Versions') : null,
    versioned ? versions : null,
    h('h3', {}, 'Presigned URL'),
    h(
      'div',
      { class: 'row' },
      expiry,
      h('button', { type: 'button', id: 'presign', onclick: presign }, 'Create URL'),
      url,
    ),
  );
}
