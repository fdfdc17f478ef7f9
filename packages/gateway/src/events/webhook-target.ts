// The webhook target: each message is one HTTP POST of the event JSON to the configured URL. Any
// 2xx answer is delivery; anything else (another status, a refused connection, no answer within
// the timeout) is a failure the delivery queue retries.
import type { Send } from './delivery-queue.js';

export function webhookSender(url: string, timeoutMs = 5000): Send {
  return async (body, stopping) => {
    const signal = AbortSignal.any([stopping, AbortSignal.timeout(timeoutMs)]);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal,
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) throw new Error(`webhook answered HTTP ${res.status}`);
  };
}
