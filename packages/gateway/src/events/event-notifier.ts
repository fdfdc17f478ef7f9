// Bucket event notifications: handlers report what they did (`emit`), and after the request the
// notifier reads the bucket's configuration, picks the rules that want the event, fills in the
// object's size when the handler did not know it, and queues one message per matching rule for
// the webhook. All of it runs off the request's path: emit() returns at once and swallows every
// failure (logged), so a slow, dead or misconfigured receiver never slows or fails S3 requests.
import type { Account, Backend, RequestContext } from '@vgwrdma/backend-contract';
import type { Logger } from '../logger.js';
import { type DeliveryOptions, DeliveryQueue, type DeliveryStats } from './delivery-queue.js';
import { type EventOrigin, eventRecord, nextSequencer, type ObjectEvent } from './event-record.js';
import { matchingRules, type NotificationRule, parseNotificationConfig } from './notification-config.js';
import { QueueStore } from './queue-store.js';
import { webhookSender } from './webhook-target.js';

export interface EventNotificationOptions extends DeliveryOptions {
  /** Where every configured destination is delivered (versitygw's --event-webhook-url). */
  readonly webhookUrl: string;
  /** One POST may take this long before it counts as failed. Default 5000. */
  readonly timeoutMs?: number;
  /** Sign each POST: `X-Vgwrdma-Signature-256: sha256=<HMAC-SHA256(secret, body) hex>`. */
  readonly webhookSecret?: string;
  /**
   * Keep the queue in this directory (one file per message) so a restart drops nothing: what is
   * left at shutdown is sent by the next start (at-least-once). In memory only when unset.
   */
  readonly queueDir?: string;
}

/** The per-request reporter handed to handlers (S3Request.events). */
export interface EventSink {
  emit(event: ObjectEvent): void;
}

export const NO_EVENTS: EventSink = { emit: () => {} };

export class EventNotifier {
  private readonly queue: DeliveryQueue;
  private readonly parsed = new Map<string, NotificationRule[]>();

  constructor(
    private readonly backend: Backend,
    private readonly logger: Logger,
    readonly options: EventNotificationOptions,
  ) {
    this.queue = new DeliveryQueue(
      webhookSender(options.webhookUrl, options.timeoutMs, options.webhookSecret),
      logger,
      {
        ...options,
        target: options.webhookUrl,
        ...(options.queueDir === undefined ? {} : { store: new QueueStore(options.queueDir) }),
      },
    );
    if (options.queueDir !== undefined) {
      void this.queue.restore().then(
        (n) =>
          n > 0 &&
          logger.info({ dir: options.queueDir, events: n }, 'event queue: resending what the last run left'),
        (err: unknown) =>
          logger.warn({ dir: options.queueDir, err: String(err) }, 'event queue: cannot read the directory'),
      );
    }
  }

  /** A sink for one request; `account` is who asked. */
  sink(origin: EventOrigin, account: Account): EventSink {
    return {
      emit: (event) => {
        void this.handle(origin, account, event).catch((err: unknown) =>
          this.logger.warn(
            { err: err instanceof Error ? err.message : String(err), bucket: origin.bucket, key: event.key },
            'event notification skipped',
          ),
        );
      },
    };
  }

  stats(): DeliveryStats {
    return this.queue.stats();
  }

  /** Resolves when every queued message has been delivered or given up. */
  drained(): Promise<void> {
    return this.queue.drained();
  }

  close(): void {
    this.queue.close();
  }

  private rules(xml: string): NotificationRule[] {
    let rules = this.parsed.get(xml);
    if (rules === undefined) {
      rules = parseNotificationConfig(xml);
      if (this.parsed.size >= 256) this.parsed.clear();
      this.parsed.set(xml, rules);
    }
    return rules;
  }

  private async handle(origin: EventOrigin, account: Account, event: ObjectEvent): Promise<void> {
    const at = new Date();
    const sequencer = nextSequencer(at.getTime());
    // A context of its own: the request's signal fires when its connection closes.
    const ctx: RequestContext = {
      account,
      requestId: origin.requestId,
      signal: new AbortController().signal,
    };
    const xml = await this.backend.getBucketNotification(ctx, origin.bucket);
    if (xml === undefined) return;
    const wanted = matchingRules(this.rules(xml), event.name, event.key);
    if (wanted.length === 0) return;
    const full = event.name.startsWith('ObjectCreated:') ? await this.withSize(ctx, origin, event) : event;
    for (const rule of wanted) {
      this.queue.push(JSON.stringify({ Records: [eventRecord(origin, full, rule.id, at, sequencer)] }), {
        bucket: origin.bucket,
        key: event.key,
        event: event.name,
      });
    }
  }

  private async withSize(ctx: RequestContext, origin: EventOrigin, event: ObjectEvent): Promise<ObjectEvent> {
    if (event.size !== undefined && event.etag !== undefined) return event;
    const head = await this.backend.headObject(ctx, {
      bucket: origin.bucket,
      key: event.key,
      ...(event.versionId === undefined ? {} : { versionId: event.versionId }),
    });
    return { ...event, size: event.size ?? head.size, etag: event.etag ?? head.etag };
  }
}
