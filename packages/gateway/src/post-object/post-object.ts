// POST object: the browser form upload to a bucket URL. The form names the key (`${filename}`
// is replaced by the file's name), may carry a signed policy (then its conditions bind the
// upload and its signer is the caller) and, without one, uploads anonymously where the bucket
// grants that. The file part streams to the backend as it arrives.

import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { ANONYMOUS, type PutObjectInput, S3Error, type TagSet } from '@vgwrdma/backend-contract';
import { newObjectAcl } from '../handlers/acl-writes.js';
import { parseObjectAttributes } from '../handlers/object-attributes.js';
import { checksumHeaders } from '../handlers/object-headers.js';
import { MAX_PUT_SIZE } from '../handlers/object-write.js';
import { opt } from '../handlers/respond.js';
import { checksumRequest, parseChecksumHeaders } from '../http/checksum-headers.js';
import { header } from '../http/headers.js';
import { MAX_KEY_BYTES } from '../http/request-target.js';
import type { Handler, S3Request } from '../routes/types.js';
import { parseTagging } from '../xml/requests.js';
import { checkPolicy } from './check-policy.js';
import { formHeaders } from './form-headers.js';
import { type Form, isFormUpload, readForm } from './form-reader.js';
import { type FormSigner, missingField, verifyFormSignature } from './form-signature.js';
import { lengthLimit } from './length-range.js';
import { type LengthRange, parsePolicyDocument } from './policy-document.js';
import { postResponse } from './post-response.js';

const notAForm = () =>
  new S3Error('PreconditionFailed', undefined, {
    detail: { Condition: 'Bucket POST must be of the enclosure-type multipart/form-data' },
  });

/** How long a refused upload may keep sending before the answer goes out (and the connection closes). */
const DRAIN_MS = 1000;

export const postObject: Handler = async (c, req) => {
  const form = req.form;
  if (!form) throw new S3Error('InternalError');
  if (!isFormUpload(header(req.headers, 'content-type'))) throw notAForm();
  const incoming = c.env.incoming;
  const { fields, file } = await readForm(incoming, form.idleTimeoutMs, form.onIdleTimeout);
  try {
    const key = resolveKey(fields, file.filename);
    fields.set('key', key);
    fields.set('bucket', req.bucket);
    const { signer, range } = await checkForm(req, fields);
    const headers = formHeaders(fields);
    await form.authorize({
      account: signer?.account ?? ANONYMOUS,
      anonymous: signer === undefined,
      ...(signer ? { signing: signer.signing } : {}),
      key,
      // The form's `tagging` field asks for s3:PutObjectTagging as the header would.
      headers: fields.has('tagging') ? { ...headers, 'x-amz-tagging': 'form' } : headers,
    });
    const ctx = signer ? { ...req.ctx, account: signer.account } : req.ctx;
    const input: PutObjectInput = {
      bucket: req.bucket,
      key,
      body: limited(file.stream, lengthLimit(range, MAX_PUT_SIZE)),
      ...parseObjectAttributes(headers),
      // The form's `tagging` field is a Tagging XML document, not the header's query string.
      ...opt('tagging', formTagging(fields)),
      ...opt(
        'checksum',
        checksumRequest(parseChecksumHeaders(headers), () => undefined),
      ),
      acl: await newObjectAcl(req, { access: signer?.account.access ?? '', headers }),
    };
    const out = await req.backend.putObject(ctx, input);
    req.events?.emit({
      name: 'ObjectCreated:Post',
      key,
      etag: out.etag,
      ...(out.versionId === undefined ? {} : { versionId: out.versionId }),
    });
    return postResponse(fields, {
      bucket: req.bucket,
      key,
      etag: out.etag,
      location: objectUrl(incoming, req, key, form.virtualHost),
      headers: {
        etag: out.etag,
        'x-amz-version-id': out.versionId,
        ...checksumHeaders(out.checksums, out.checksumType),
      },
    });
  } catch (err) {
    await drain(incoming, file.stream);
    throw err;
  }
};

function formTagging(fields: Form['fields']): TagSet | undefined {
  const xml = fields.get('tagging');
  return xml === undefined || xml === '' ? undefined : parseTagging(xml, 10);
}

/** S3's placeholder for the file part's name in the key field. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a literal S3 placeholder, not a template
const FILENAME = '${filename}';

/** The key field, with `${filename}` standing for the file's name. */
function resolveKey(fields: Form['fields'], filename: string): string {
  const raw = fields.get('key');
  if (raw === undefined || raw === '') throw missingField('key');
  const key = raw.replaceAll(FILENAME, filename);
  if (key === '') throw missingField('key');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError');
  return key;
}

/** The policy's signer and size range; neither without a policy (an anonymous upload). */
async function checkForm(
  req: S3Request,
  fields: Map<string, string>,
): Promise<{ signer?: FormSigner; range?: LengthRange }> {
  const policy = fields.get('policy');
  if (policy === undefined || policy === '') return {};
  const form = req.form as NonNullable<S3Request['form']>;
  const signer = await verifyFormSignature(fields, policy, form.credentials, req.region);
  const doc = parsePolicyDocument(policy);
  checkPolicy(doc, fields, new Date());
  return doc.length ? { signer, range: doc.length } : { signer };
}

function objectUrl(incoming: IncomingMessage, req: S3Request, key: string, virtualHost: boolean): string {
  const secure = (incoming.socket as { encrypted?: boolean }).encrypted === true;
  const host = header(req.headers, 'host') ?? 'localhost';
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${secure ? 'https' : 'http'}://${host}/${virtualHost ? '' : `${encodeURIComponent(req.bucket)}/`}${path}`;
}

/**
 * The file part through the length check. Not `pipeline`: that would destroy the part's
 * stream on a refusal, and busboy would then wait forever for it to drain.
 */
function limited(file: Readable, limit: Transform): Transform {
  file.once('error', (err) => limit.destroy(err));
  // The backend may not be reading yet when the check fails; it meets the error at its next
  // read (a stream's iterator reports `errored`), so an unheard 'error' must not crash us.
  limit.on('error', () => undefined);
  return file.pipe(limit);
}

/** Lets a refused upload's remaining bytes be read (briefly), so the client sees the answer. */
async function drain(incoming: IncomingMessage, file: Readable): Promise<void> {
  file.unpipe();
  file.resume();
  if (incoming.readableEnded) return;
  const timer = new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref());
  await Promise.race([once(incoming, 'end'), timer]).catch(() => undefined);
}
