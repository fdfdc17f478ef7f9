// Reads a multipart/form-data POST up to its `file` part: the fields before it (names
// lower-cased, bounded in size) and the file part as a stream that the caller pipes to the
// backend. Nothing of the file is buffered here; busboy holds the socket back until the
// caller reads. Parts after the file are drained and ignored, as S3 does. Some clients (Python's
// requests) send every field as a part with a filename, so only the name `file` marks the file.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { S3Error } from '@vgwrdma/backend-contract';
import busboy from 'busboy';
import { bodyErrors } from '../body/body-errors.js';
import { watchIdle } from '../body/idle-watch.js';

interface FormFile {
  readonly stream: Readable;
  /** The filename the client gave the file part ('' when none), for `${filename}`. */
  readonly filename: string;
}

export interface Form {
  /** Fields before the file, lower-case names; the last value of a repeated name wins. */
  readonly fields: Map<string, string>;
  readonly file: FormFile;
}

/** Bytes of field data accepted before the file (S3 allows 20 KB; policies can be long). */
const MAX_FIELD_BYTES = 64 * 1024;

const malformed = () => new S3Error('MalformedPOSTRequest');
const noFile = () =>
  S3Error.custom('InvalidArgument', 'POST requires exactly one file upload per request.', {
    detail: { ArgumentName: 'file', ArgumentValue: '0' },
  });
const tooLarge = () =>
  S3Error.custom('InvalidArgument', 'Your POST request fields preceding the upload file were too large.', {
    detail: { ArgumentName: 'fields', ArgumentValue: String(MAX_FIELD_BYTES) },
  });

/** True when the request says it is a form upload (with a boundary). */
export function isFormUpload(contentType: string | undefined): boolean {
  return contentType !== undefined && /^multipart\/form-data\s*;.*boundary=/i.test(contentType);
}

/**
 * Resolves once the file part starts; rejects with an S3Error for a form S3 would refuse. A form
 * that sends nothing for `idleTimeoutMs` (0: no limit) fails with RequestTimeout: the promise
 * while the fields arrive, the file stream once the file part has started.
 */
export function readForm(
  incoming: IncomingMessage,
  idleTimeoutMs = 0,
  onIdleTimeout: () => void = () => {},
): Promise<Form> {
  return new Promise<Form>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: incoming.headers,
        limits: { fieldSize: MAX_FIELD_BYTES, fields: 1000, parts: 1000, files: 1000 },
      });
    } catch {
      reject(malformed());
      return;
    }
    const fields = new Map<string, string>();
    const pending: Promise<void>[] = [];
    let fieldBytes = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      incoming.unpipe(bb);
      reject(err);
    };
    let overflow = false;
    let fileStream: Readable | undefined;
    const addField = (name: string, value: string | undefined) => {
      fieldBytes += name.length + (value?.length ?? MAX_FIELD_BYTES);
      if (value === undefined || fieldBytes > MAX_FIELD_BYTES) {
        overflow = true;
        return fail(tooLarge());
      }
      fields.set(name.toLowerCase(), value);
    };

    bb.on('field', (name, value, info) => {
      if (settled) return;
      if (info.valueTruncated) return fail(tooLarge());
      addField(name, value);
    });
    bb.on('file', (name, stream, info) => {
      if (settled || name.toLowerCase() !== 'file') {
        if (settled) stream.resume();
        else pending.push(readSmall(stream).then((v) => addField(name, v)));
        return;
      }
      settled = true;
      fileStream = stream;
      // Fields sent as file parts may still be arriving through their own streams.
      Promise.all(pending).then(() => {
        if (!overflow) return resolve({ fields, file: { stream, filename: info.filename ?? '' } });
        incoming.unpipe(bb);
        reject(tooLarge());
      }, reject);
    });
    bb.on('error', () => fail(malformed()));
    bb.on('close', () => fail(noFile()));
    incoming.on('error', () => fail(malformed()));
    incoming.pipe(bb);
    watchIdle({
      source: incoming,
      reader: bb,
      ms: idleTimeoutMs,
      onIdle: () => {
        onIdleTimeout();
        if (fileStream) fileStream.destroy(bodyErrors.idle());
        else fail(bodyErrors.idle());
      },
    });
  });
}

/** A field sent as a file part, read whole up to the field limit (undefined past it). */
async function readSmall(stream: Readable): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_FIELD_BYTES) {
      stream.resume();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
