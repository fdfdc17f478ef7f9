// Bucket event notifications: versitygw's --event-webhook-url (same name and environment
// variable) names the one target every configured destination is delivered to; vgwrdma adds the
// bounds of the delivery queue, a directory that keeps it across restarts and an HMAC secret
// that signs each POST. Spread into GLOBAL_FLAGS (flags.ts) like the limits.
import { z } from 'zod';
import type { FlagSpec } from './flags.js';
import { isHttpUrl } from './http-url.js';

const webhookUrl = z
  .string()
  .refine(isHttpUrl, 'must be an http:// or https:// URL such as http://127.0.0.1:9000/events');

const positive = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,6}$/, `must be a whole number of ${what} from 1`)
    .transform(Number);

export const EVENT_FLAGS = [
  {
    name: 'event-webhook-url',
    type: 'string',
    env: ['VGW_EVENT_WEBHOOK_URL'],
    schema: webhookUrl,
    arg: 'URL',
    help: 'enable bucket event notifications: every configured destination is POSTed (S3 event JSON) to URL',
  },
  {
    name: 'event-queue-size',
    type: 'string',
    env: ['VGW_EVENT_QUEUE_SIZE'],
    schema: positive('events'),
    default: '1000',
    arg: 'N',
    help: 'event notifications waiting for delivery at most; beyond it the oldest is dropped (counted and logged)',
  },
  {
    name: 'event-max-attempts',
    type: 'string',
    env: ['VGW_EVENT_MAX_ATTEMPTS'],
    schema: positive('attempts'),
    default: '5',
    arg: 'N',
    help: 'sends of one event notification at most (retries back off from 200 ms, doubling, up to 10 s)',
  },
  {
    name: 'event-queue-dir',
    type: 'string',
    env: ['VGW_EVENT_QUEUE_DIR'],
    schema: z.string().min(1, 'must not be empty'),
    arg: 'DIR',
    help: 'keep the event queue in DIR (one file per event) so a restart drops nothing: what is left at shutdown is sent by the next start (at-least-once)',
  },
  {
    name: 'event-webhook-secret',
    type: 'string',
    env: ['VGW_EVENT_WEBHOOK_SECRET'],
    schema: z.string().min(16, 'must be at least 16 characters'),
    arg: 'SECRET',
    help: 'sign each webhook POST: header X-Vgwrdma-Signature-256: sha256=<hex HMAC-SHA256 of the body, keyed by SECRET>',
  },
] as const satisfies readonly FlagSpec[];
