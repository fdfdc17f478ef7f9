// The webhook target: each message is one HTTP POST of the event JSON to the configured URL. Any
// 2xx answer is delivery; anything else (another status, a refused connection, no answer within
// the timeout) is a failure the delivery queue retries. With a secret, each POST carries
// `X-Vgwrdma-Signature-256: sha256=<hex>`: HMAC-SHA256 with the secret as key over the exact body
// bytes (GitHub's webhook scheme), so a receiver can check who sent it and that nothing changed.
import { createHmac } from 'node:crypto';
import type { Send } from './delivery-queue.js';

/** The header a signed POST carries. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-vgwrdma-signature-256';

/** The header's value for `body`: `sha256=` and the hex HMAC-SHA256 of its UTF-8 bytes. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export function webhookSender(url: string, timeoutMs = 5000, secret?: string): Send {
  return async (body, stopping) => {
    const signal = AbortSignal.any([stopping, AbortSignal.timeout(timeoutMs)]);
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret === undefined ? {} : { [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, body) }),
      },
      body,
      signal,
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) throw new Error(`webhook answered HTTP ${res.status}`);
  };
}
