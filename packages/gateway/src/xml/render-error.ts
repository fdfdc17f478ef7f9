// The S3 error document: <Error><Code/><Message/><Resource/><RequestId/>...detail</Error>.
// Unlike success documents, S3 writes it without a namespace.
import { el, XML_DECLARATION } from './document.js';

interface ErrorDocument {
  code: string;
  message: string;
  resource: string;
  requestId: string;
  detail?: Readonly<Record<string, string>>;
}

export function renderError(e: ErrorDocument): string {
  const detail = Object.entries(e.detail ?? {})
    .map(([k, v]) => el(k, v))
    .join('');
  return `${XML_DECLARATION}<Error>${el('Code', e.code)}${el('Message', e.message)}${detail}${el('Resource', e.resource)}${el('RequestId', e.requestId)}</Error>`;
}
