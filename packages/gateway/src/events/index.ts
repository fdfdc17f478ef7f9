// Bucket event notifications (PutBucketNotificationConfiguration, delivered to a webhook).
export { type DeliveryOptions, DeliveryQueue, type DeliveryStats, type Send } from './delivery-queue.js';
export { EVENT_NAMES, type EventName, isEventSelector, selects } from './event-names.js';
export {
  type EventNotificationOptions,
  EventNotifier,
  type EventSink,
  NO_EVENTS,
} from './event-notifier.js';
export { type EventOrigin, eventRecord, type ObjectEvent, type S3EventRecord } from './event-record.js';
export { matchingRules, type NotificationRule, parseNotificationConfig } from './notification-config.js';
export { type EventAbout, QueueStore, type StoredMessage } from './queue-store.js';
export { WEBHOOK_SIGNATURE_HEADER, webhookSender, webhookSignature } from './webhook-target.js';
