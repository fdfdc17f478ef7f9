// Bucket event notifications: versitygw's --event-webhook-url (same name and environment
// variable) names the one target every configured destination is delivered to; vgwrdma adds the
// bounds of the delivery queue, a directory that keeps it across restarts and an HMAC secret
// that signs each POST. Spread into the global options (flags.ts) like the limits.

import { nonEmpty, option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import { isHttpUrl } from './http-url.js';

const webhookUrl = z
  .string()
  .refine(isHttpUrl, 'must be an http:// or https:// URL such as http://127.0.0.1:9000/events');

const positive = (what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,6}$/, `must be a whole number of ${what} from 1`)
    .transform(Number);

export const EVENT_OPTIONS = {
  'event-webhook-url': option(webhookUrl, {
    env: ['VGW_EVENT_WEBHOOK_URL'],
    arg: 'URL',
    help: 'enable bucket event notifications: every configured destination is POSTed (S3 event JSON) to URL',
  }).optional(),
  'event-queue-size': option(positive('events'), {
    env: ['VGW_EVENT_QUEUE_SIZE'],
    default: '1000',
    arg: 'N',
    help: 'event notifications waiting for delivery at most; beyond it the oldest is dropped (counted and logged)',
  }),
  'event-max-attempts': option(positive('attempts'), {
    env: ['VGW_EVENT_MAX_ATTEMPTS'],
    default: '5',
    arg: 'N',
    help: 'sends of one event notification at most (retries back off from 200 ms, doubling, up to 10 s)',
  }),
  'event-queue-dir': option(nonEmpty, {
    env: ['VGW_EVENT_QUEUE_DIR'],
    arg: 'DIR',
    help: 'keep the event queue in DIR (one file per event) so a restart drops nothing: what is left at shutdown is sent by the next start (at-least-once)',
  }).optional(),
  'event-webhook-secret': option(z.string().min(16, 'must be at least 16 characters'), {
    env: ['VGW_EVENT_WEBHOOK_SECRET'],
    arg: 'SECRET',
    help: 'sign each webhook POST: header X-Vgwrdma-Signature-256: sha256=<hex HMAC-SHA256 of the body, keyed by SECRET>',
  }).optional(),
};
