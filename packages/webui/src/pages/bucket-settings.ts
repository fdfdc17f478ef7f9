// One bucket's settings: viewers and editors for its policy (JSON), CORS (XML), tags, versioning
// and public access block. Each editor checks what it can before sending (JSON syntax, XML root,
// tag limits) and shows the problem inline; the gateway's own refusal (MalformedPolicy, …) is
// shown with its code beside the editor.
import { InvalidArgumentError } from '@vgwrdma/errors';
import { h } from '../dom.js';
import { childrenNamed, parseXml, textOf } from '../s3.js';
import {
  deleteSubresource,
  getSubresource,
  getVersioning,
  putSubresource,
  putVersioning,
  type TagSet,
  tagsXml,
} from '../s3-ops.js';
import { attempt, heading, showError } from '../ui.js';

interface EditorSpec {
  readonly id: string;
  readonly title: string;
  readonly sub: string;
  readonly missing: readonly string[];
  readonly type: string;
  readonly hint: string;
  /** Converts what the gateway answered into the editor's text. */
  readonly show?: (text: string) => string;
  /** The body to send, or a message saying what is wrong. */
  readonly check: (text: string) => { body: string } | { problem: string };
}

const xmlCheck = (root: string) => (text: string) => {
  const doc = parseXml(text);
  if (doc.getElementsByTagName('parsererror').length > 0) return { problem: 'This is not well-formed XML.' };
  if (doc.documentElement.localName !== root)
    return { problem: `The document's root element must be <${root}>.` };
  return { body: text };
};

function parseTags(text: string): TagSet | string {
  const tags: TagSet = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return `Line ${i + 1}: write each tag as key=value.`;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key.length > 128) return `Line ${i + 1}: a tag key is at most 128 characters.`;
    if (value.length > 256) return `Line ${i + 1}: a tag value is at most 256 characters.`;
    if (tags.some(([k]) => k === key)) return `Line ${i + 1}: the key "${key}" is given twice.`;
    tags.push([key, value]);
  }
  if (tags.length > 50) return 'A bucket has at most 50 tags.';
  return tags;
}

const EDITORS: readonly EditorSpec[] = [
  {
    id: 'policy',
    title: 'Bucket policy',
    sub: 'policy',
    missing: ['NoSuchBucketPolicy'],
    type: 'application/json',
    hint: 'A JSON policy document ({"Version": "2012-10-17", "Statement": [...]}).',
    check: (text) => {
      try {
        const v = JSON.parse(text) as { Statement?: unknown };
        if (typeof v !== 'object' || v === null || !Array.isArray(v.Statement))
          return { problem: 'A policy is a JSON object with a "Statement" array.' };
        return { body: text };
      } catch (error) {
        return { problem: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  },
  {
    id: 'cors',
    title: 'CORS',
    sub: 'cors',
    missing: ['NoSuchCORSConfiguration'],
    type: 'application/xml',
    hint: 'A <CORSConfiguration> document with <CORSRule> elements.',
    check: xmlCheck('CORSConfiguration'),
  },
  {
    id: 'tagging',
    title: 'Tags',
    sub: 'tagging',
    missing: ['NoSuchTagSet', 'NoSuchTagSetError'],
    type: 'application/xml',
    hint: 'One key=value per line.',
    show: (text) =>
      childrenNamed(parseXml(text), 'Tag', true)
        .map((t) => `${textOf(t, 'Key') ?? ''}=${textOf(t, 'Value') ?? ''}`)
        .join('\n'),
    check: (text) => {
      const tags = parseTags(text);
      return typeof tags === 'string' ? { problem: tags } : { body: tagsXml(tags) };
    },
  },
];

function editor(bucket: string, spec: EditorSpec): HTMLElement {
  const area = h('textarea', { id: `${spec.id}-text`, rows: 8, spellcheck: 'false' });
  const inline = h('div', { class: 'inline-error', id: `${spec.id}-error` });
  const errors = h('div', { class: 'errors' });
  const saved = h('span', { class: 'muted', id: `${spec.id}-status` });
  const load = () =>
    attempt(errors, async () => {
      const text = await getSubresource(bucket, spec.sub, spec.missing);
      area.value = text === '' ? '' : spec.show ? spec.show(text) : text;
      saved.textContent = text === '' ? 'none set' : '';
    });
  const save = () => {
    inline.textContent = '';
    const checked = spec.check(area.value);
    if ('problem' in checked) {
      inline.textContent = checked.problem;
      return;
    }
    void attempt(errors, async () => {
      await putSubresource(bucket, spec.sub, checked.body, spec.type);
      saved.textContent = 'saved';
    });
  };
  const remove = () =>
    void attempt(errors, async () => {
      await deleteSubresource(bucket, spec.sub);
      await load();
    });
  void load();
  return h(
    'section',
    { class: 'card', id: `${spec.id}-editor` },
    h('h2', {}, spec.title),
    h('p', { class: 'muted' }, spec.hint),
    area,
    inline,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', id: `${spec.id}-save`, onclick: save }, 'Save'),
      h('button', { type: 'button', class: 'danger', onclick: remove }, 'Remove'),
      saved,
    ),
    errors,
  );
}

function versioningEditor(bucket: string): HTMLElement {
  const select = h(
    'select',
    { id: 'versioning-status' },
    h('option', { value: 'Enabled' }, 'Enabled'),
    h('option', { value: 'Suspended' }, 'Suspended'),
  );
  const current = h('span', { class: 'muted', id: 'versioning-current' });
  const errors = h('div', { class: 'errors' });
  const load = () =>
    attempt(errors, async () => {
      const status = await getVersioning(bucket);
      current.textContent = `now: ${status === 'Off' ? 'never enabled' : status}`;
    });
  void load();
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Versioning'),
    h(
      'div',
      { class: 'row' },
      select,
      h(
        'button',
        {
          type: 'button',
          id: 'versioning-save',
          onclick: () =>
            void attempt(errors, async () => {
              await putVersioning(bucket, select.value as 'Enabled' | 'Suspended');
              await load();
            }),
        },
        'Apply',
      ),
      current,
    ),
    errors,
  );
}

const PAB = ['BlockPublicAcls', 'IgnorePublicAcls', 'BlockPublicPolicy', 'RestrictPublicBuckets'] as const;

function publicAccessEditor(bucket: string): HTMLElement {
  const boxes = PAB.map((name) => h('input', { type: 'checkbox', id: `pab-${name}` }));
  const errors = h('div', { class: 'errors' });
  const load = () =>
    attempt(errors, async () => {
      const text = await getSubresource(bucket, 'publicAccessBlock', [
        'NoSuchPublicAccessBlockConfiguration',
      ]);
      const doc = parseXml(text || '<PublicAccessBlockConfiguration/>');
      PAB.forEach((name, i) => {
        const box = boxes[i];
        if (box) box.checked = textOf(doc, name) === 'true';
      });
    });
  const save = () =>
    void attempt(errors, async () => {
      const body = PAB.map((name, i) => `<${name}>${boxes[i]?.checked ? 'true' : 'false'}</${name}>`).join(
        '',
      );
      await putSubresource(
        bucket,
        'publicAccessBlock',
        `<PublicAccessBlockConfiguration>${body}</PublicAccessBlockConfiguration>`,
        'application/xml',
      );
      await load();
    });
  void load();
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Public access block'),
    ...PAB.map((name, i) => h('label', { class: 'check' }, boxes[i] ?? null, ` ${name}`)),
    h('div', { class: 'row' }, h('button', { type: 'button', onclick: save }, 'Save')),
    errors,
  );
}

export async function bucketSettingsPage(main: HTMLElement, args: string[]): Promise<undefined> {
  const bucket = args[0] ?? '';
  const errors = h('div', { class: 'errors' });
  main.append(
    heading(
      `Settings of ${bucket}`,
      h('a', { href: `#/browse/${encodeURIComponent(bucket)}` }, 'Browse objects'),
    ),
    errors,
    versioningEditor(bucket),
    ...EDITORS.map((spec) => editor(bucket, spec)),
    publicAccessEditor(bucket),
  );
  if (bucket === '') showError(errors, new InvalidArgumentError('no bucket named'));
  return undefined;
}
