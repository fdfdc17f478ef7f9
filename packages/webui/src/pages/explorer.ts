// The object explorer: one bucket, one prefix at a time, shown as folders (common prefixes) and
// objects, a page of keys per ListObjectsV2 call with continuation tokens (next / previous keep
// the tokens seen), so a bucket of any size stays responsive. Upload by drag and drop (or a file
// picker) with a progress bar and an Abort button; each object can be downloaded, deleted, or
// opened in the details panel (metadata, tags, versions, presigned URL).
import { formatBytes, h, replace, table } from '../dom.js';
import { deleteObject, getVersioning, listPage } from '../s3-ops.js';
import { attempt, heading, showError } from '../ui.js';
import { uploadFile } from '../upload.js';
import { download, objectPanel } from './object-panel.js';

const PAGE_SIZE = 100;

const browseHash = (bucket: string, prefix: string) =>
  `#/browse/${encodeURIComponent(bucket)}${prefix === '' ? '' : `/${encodeURIComponent(prefix)}`}`;

function crumbs(bucket: string, prefix: string): HTMLElement {
  const parts = prefix.split('/').filter((p) => p !== '');
  const links: (Node | string)[] = [h('a', { href: browseHash(bucket, '') }, bucket)];
  parts.forEach((part, i) => {
    links.push(' / ', h('a', { href: browseHash(bucket, `${parts.slice(0, i + 1).join('/')}/`) }, part));
  });
  return h('div', { class: 'crumbs', id: 'crumbs' }, ...links);
}

export async function explorerPage(main: HTMLElement, args: string[]): Promise<undefined> {
  const bucket = args[0] ?? '';
  const prefix = args[1] ?? '';
  const errors = h('div', { class: 'errors' });
  const listing = h('div', { id: 'listing' });
  const panel = h('div', {});
  const pager = h('div', { class: 'row pager' });
  const tokens: (string | undefined)[] = [undefined];
  let pageIndex = 0;
  let versioned = false;

  const progress = h('progress', { id: 'upload-progress', max: 100, value: 0 });
  const progressText = h('span', { id: 'upload-percent' }, '');
  const abort = h('button', { type: 'button', id: 'upload-abort', disabled: true }, 'Abort');
  const picker = h('input', { type: 'file', id: 'upload-input', multiple: true });
  const drop = h(
    'div',
    { class: 'dropzone', id: 'dropzone' },
    'Drop files here to upload them to ',
    h('code', {}, `${bucket}/${prefix}`),
    ' — or ',
    picker,
  );

  const showPage = async () => {
    const page = await listPage(bucket, prefix, tokens[pageIndex], PAGE_SIZE);
    tokens[pageIndex + 1] = page.next;
    const rows = [
      ...page.prefixes.map((p) => [
        h('a', { href: browseHash(bucket, p), class: 'folder' }, `📁 ${p.slice(prefix.length)}`),
        '',
        '',
        '',
      ]),
      ...page.objects.map((o) => [
        h(
          'button',
          {
            type: 'button',
            class: 'link object-name',
            'data-key': o.key,
            onclick: () =>
              replace(
                panel,
                objectPanel(bucket, o.key, versioned, () => void showPage()),
              ),
          },
          o.key.slice(prefix.length),
        ),
        formatBytes(o.size),
        o.modified,
        h(
          'span',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'download',
              'data-key': o.key,
              onclick: () => void attempt(errors, () => download(bucket, o.key)),
            },
            'Download',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'danger',
              'data-key': o.key,
              onclick: () =>
                void attempt(errors, async () => {
                  if (
                    !confirm(
                      `Delete "${o.key}"?${versioned ? ' (Versioning is on: this adds a delete marker; delete versions in the details panel.)' : ''}`,
                    )
                  )
                    return;
                  await deleteObject(bucket, o.key);
                  await showPage();
                }),
            },
            'Delete',
          ),
        ),
      ]),
    ];
    replace(
      listing,
      rows.length === 0
        ? h('p', { class: 'muted', id: 'empty' }, 'Nothing here yet.')
        : table(['name', 'size', 'modified', ''], rows, { id: 'objects' }),
    );
    replace(
      pager,
      h(
        'button',
        {
          type: 'button',
          id: 'prev-page',
          disabled: pageIndex === 0,
          onclick: () => {
            pageIndex--;
            void attempt(errors, showPage);
          },
        },
        '← Previous',
      ),
      h('span', { class: 'muted' }, `page ${pageIndex + 1}`),
      h(
        'button',
        {
          type: 'button',
          id: 'next-page',
          disabled: page.next === undefined,
          onclick: () => {
            pageIndex++;
            void attempt(errors, showPage);
          },
        },
        'Next →',
      ),
    );
  };

  const upload = async (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const key = `${prefix}${file.name}`;
      progress.value = 0;
      progressText.textContent = `${file.name}: 0 %`;
      const handle = uploadFile(bucket, key, file, (f) => {
        const pct = Math.min(100, Math.round(f * 100));
        progress.value = pct;
        progressText.textContent = `${file.name}: ${pct} %`;
      });
      abort.disabled = false;
      abort.onclick = () => handle.abort();
      const ok = await attempt(errors, () => handle.done);
      abort.disabled = true;
      if (!ok) {
        progressText.textContent = `${file.name}: not uploaded`;
        break;
      }
      progressText.textContent = `${file.name}: 100 % — uploaded`;
    }
    await attempt(errors, showPage);
  };

  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer?.files) void upload(e.dataTransfer.files);
  });
  picker.addEventListener('change', () => {
    if (picker.files) void upload(picker.files);
  });

  main.append(
    heading(`Bucket ${bucket}`, h('a', { href: `#/bucket/${encodeURIComponent(bucket)}` }, 'Settings')),
    crumbs(bucket, prefix),
    drop,
    h('div', { class: 'row' }, progress, progressText, abort),
    errors,
    listing,
    pager,
    panel,
  );
  try {
    versioned = (await getVersioning(bucket).catch(() => 'Off')) === 'Enabled';
    await showPage();
  } catch (error) {
    showError(errors, error);
  }
  return undefined;
}
