// PutBucketNotificationConfiguration bodies: parsed into rules, or refused. A rule is one
// TopicConfiguration, QueueConfiguration or CloudFunctionConfiguration: its Id, destination ARN,
// the events it selects and an optional key prefix/suffix filter. Every destination ARN is
// delivered to the gateway's one webhook target (--event-webhook-url), as versitygw has one
// sender per gateway; without that target no rule can be stored.
import { S3Error } from '@vgwrdma/backend-contract';
import { child, children, childText, parseXmlRoot, type XmlNode } from '../xml/parse.js';
import { type EventName, isEventSelector, selects } from './event-names.js';

export interface NotificationRule {
  readonly id: string;
  /** The ARN as configured (Topic, Queue or CloudFunction). */
  readonly arn: string;
  readonly events: readonly string[];
  readonly prefix?: string;
  readonly suffix?: string;
}

/** Configuration element → the element holding its ARN. */
const KINDS = {
  TopicConfiguration: 'Topic',
  QueueConfiguration: 'Queue',
  CloudFunctionConfiguration: 'CloudFunction',
} as const;

const invalid = (message: string) => S3Error.custom('InvalidArgument', message);

function filterRules(node: XmlNode): { prefix?: string; suffix?: string } {
  const out: { prefix?: string; suffix?: string } = {};
  for (const rule of children(child(child(node, 'Filter'), 'S3Key'), 'FilterRule')) {
    const name = (childText(rule, 'Name') ?? '').toLowerCase();
    const value = childText(rule, 'Value') ?? '';
    if (name !== 'prefix' && name !== 'suffix')
      throw invalid('filter rule name must be either prefix or suffix');
    if (out[name] !== undefined) throw invalid('Cannot specify more than one prefix rule in a filter.');
    out[name] = value;
  }
  return out;
}

/** The rules of a configuration document; an empty list means "no notifications". */
export function parseNotificationConfig(xml: string): NotificationRule[] {
  const root = parseXmlRoot(xml, 'NotificationConfiguration');
  const rules: NotificationRule[] = [];
  for (const [kind, arnElement] of Object.entries(KINDS)) {
    for (const node of children(root, kind)) {
      const arn = childText(node, arnElement) ?? '';
      if (arn === '') throw invalid(`${kind} needs a ${arnElement} ARN.`);
      const events = children(node, 'Event').map((e) => (typeof e === 'string' ? e : ''));
      if (events.length === 0) throw invalid(`${kind} needs at least one Event.`);
      for (const e of events) if (!isEventSelector(e)) throw invalid(`The event '${e}' is not supported.`);
      rules.push({
        id: childText(node, 'Id') || `${kind}-${rules.length + 1}`,
        arn,
        events,
        ...filterRules(node),
      });
    }
  }
  return rules;
}

/** The rules that want event `name` on `key`. */
export function matchingRules(
  rules: readonly NotificationRule[],
  name: EventName,
  key: string,
): NotificationRule[] {
  return rules.filter(
    (r) =>
      r.events.some((e) => selects(e, name)) &&
      (r.prefix === undefined || key.startsWith(r.prefix)) &&
      (r.suffix === undefined || key.endsWith(r.suffix)),
  );
}
