// Uploads a dropped file with progress: one PutObject (XMLHttpRequest, for its upload progress
// events) up to MULTIPART_THRESHOLD, a multipart upload above it (parts in order, the aborted or
// failed upload aborted on the gateway too). Object bodies are sent as UNSIGNED-PAYLOAD: hashing
// gigabytes in the page first would take longer than sending them.
import { VgwrdmaError } from '@vgwrdma/errors';
import { baseUrl, config } from './config.js';
import { errorFromBody, NetworkError } from './errors.js';
import { call, childrenNamed, parseXml, pathOf, textOf } from './s3.js';
import { queryString, signedHeaders, UNSIGNED_PAYLOAD } from './sign.js';

export const MULTIPART_THRESHOLD = 16 * 1024 * 1024;
export const PART_SIZE = 8 * 1024 * 1024;

export interface UploadHandle {
  /** Resolves once the object is stored; rejects on error or abort. */
  readonly done: Promise<void>;
  abort(): void;
}

export class AbortedError extends VgwrdmaError<'VGW_ERR_WEBUI_ABORTED'> {
  override readonly name = 'AbortedError';
  constructor() {
    super('VGW_ERR_WEBUI_ABORTED', 'upload aborted');
  }
}

/** One PUT of `body` with progress; resolves with the response's ETag. */
async function putWithProgress(
  path: string,
  query: Record<string, string>,
  body: Blob,
  contentType: string | undefined,
  onProgress: (sent: number) => void,
  register: (xhr: XMLHttpRequest) => void,
): Promise<string> {
  const base = baseUrl(config().s3);
  const headers = await signedHeaders({
    method: 'PUT',
    base,
    path,
    query,
    headers: contentType ? { 'content-type': contentType } : {},
    payloadHash: UNSIGNED_PAYLOAD,
  });
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    register(xhr);
    xhr.open('PUT', `${base}${path}${queryString(query)}`);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(body.size);
        resolve(xhr.getResponseHeader('etag') ?? '');
      } else reject(errorFromBody(xhr.status, xhr.responseText, xhr.statusText));
    };
    xhr.onerror = () => reject(new NetworkError('the upload connection failed'));
    xhr.onabort = () => reject(new AbortedError());
    xhr.send(body);
  });
}

export function uploadFile(
  bucket: string,
  key: string,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  let current: XMLHttpRequest | undefined;
  let aborted = false;
  const register = (xhr: XMLHttpRequest) => {
    current = xhr;
    if (aborted) xhr.abort();
  };
  const path = pathOf(bucket, key);
  const type = file.type || undefined;
  const total = Math.max(1, file.size);

  const single = async () => {
    await putWithProgress(path, {}, file, type, (n) => onProgress(n / total), register);
  };

  const multipart = async () => {
    const created = parseXml(
      await (
        await call({
          method: 'POST',
          bucket,
          key,
          query: { uploads: '' },
          ...(type ? { headers: { 'content-type': type } } : {}),
        })
      ).text(),
    );
    const uploadId = textOf(created, 'UploadId') ?? '';
    const etags: string[] = [];
    try {
      for (let start = 0, part = 1; start < file.size; start += PART_SIZE, part++) {
        if (aborted) throw new AbortedError();
        const chunk = file.slice(start, Math.min(file.size, start + PART_SIZE));
        const etag = await putWithProgress(
          path,
          { partNumber: String(part), uploadId },
          chunk,
          undefined,
          (n) => onProgress((start + n) / total),
          register,
        );
        etags.push(etag);
      }
      const parts = etags
        .map((e, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${e}</ETag></Part>`)
        .join('');
      const answer = parseXml(
        await (
          await call({
            method: 'POST',
            bucket,
            key,
            query: { uploadId },
            body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`,
          })
        ).text(),
      );
      // CompleteMultipartUpload may answer 200 with an <Error> document.
      if (childrenNamed(answer, 'Error', true).length > 0 || answer.documentElement.localName === 'Error')
        throw errorFromBody(500, new XMLSerializer().serializeToString(answer));
      onProgress(1);
    } catch (error) {
      await call({ method: 'DELETE', bucket, key, query: { uploadId } }).catch(() => {});
      throw error;
    }
  };

  const done = file.size > MULTIPART_THRESHOLD ? multipart() : single();
  return {
    done,
    abort() {
      aborted = true;
      current?.abort();
    },
  };
}
