// Requests Node's HTTP parser gives up on. A client that ends its side of the connection before
// the body Content-Length promised (HPE_INVALID_EOF_STATE) gets S3's answer, 400 IncompleteBody
// as an XML error document, instead of Node's bare 400; the handler already in flight sees its
// body fail, stores nothing, and its own answer finds the socket gone. A path with raw bytes the
// parser refuses (HPE_INVALID_URL: bytes above 0x7F unescaped) gets AWS's 400 InvalidURI. Every
// other parse error is answered as Node itself would (400, 431, 408, or nothing once a response
// has started).
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { S3Error } from '@vgwrdma/backend-contract';
import { bodyErrors } from '../body/body-errors.js';
import { renderError } from '../xml/render-error.js';

const NODE_ANSWERS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

function answer(status: string, body = '', type = ''): string {
  const head = type === '' ? '' : `Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  return `HTTP/1.1 ${status}\r\n${head}Connection: close\r\n\r\n${body}`;
}

const S3_ANSWERS: Readonly<Record<string, () => S3Error>> = {
  HPE_INVALID_EOF_STATE: bodyErrors.shortBody,
  HPE_INVALID_URL: () => S3Error.custom('InvalidURI', "Couldn't parse the specified URI."),
};

function s3Answer(e: S3Error): string {
  const xml = renderError({
    code: e.code,
    message: e.message,
    resource: '',
    requestId: randomBytes(8).toString('hex').toUpperCase(),
  });
  return answer('400 Bad Request', xml, 'application/xml');
}

export function answerClientErrors(server: Server | HttpsServer): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const code = err.code ?? '';
      const s3 = Object.hasOwn(S3_ANSWERS, code) ? S3_ANSWERS[code] : undefined;
      socket.write(
        s3
          ? s3Answer(s3())
          : answer(Object.hasOwn(NODE_ANSWERS, code) ? (NODE_ANSWERS[code] as string) : '400 Bad Request'),
      );
    }
    socket.destroy(err);
  });
}
