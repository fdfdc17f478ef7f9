// Notification configurations: Topic/Queue/CloudFunction rules with their ARNs, events and
// key filters parsed from the XML the AWS SDK sends; unknown events, filter names and missing
// ARNs refused with InvalidArgument; and which rules an event on a key selects.
import { describe, expect, it } from 'vitest';
import { isEventSelector } from '../../src/events/event-names.js';
import { encodeEventKey, nextSequencer } from '../../src/events/event-record.js';
import { matchingRules, parseNotificationConfig } from '../../src/events/notification-config.js';

const NS = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';
const doc = (inner: string) => `<NotificationConfiguration ${NS}>${inner}</NotificationConfiguration>`;

describe('parseNotificationConfig', () => {
  it('reads every kind of configuration with its filter', () => {
    const rules = parseNotificationConfig(
      doc(
        '<TopicConfiguration><Id>t</Id><Topic>arn:aws:sns:::t</Topic><Event>s3:ObjectCreated:Put</Event>' +
          '<Filter><S3Key><FilterRule><Name>Prefix</Name><Value>img/</Value></FilterRule>' +
          '<FilterRule><Name>suffix</Name><Value>.jpg</Value></FilterRule></S3Key></Filter></TopicConfiguration>' +
          '<QueueConfiguration><Queue>arn:aws:sqs:::q</Queue><Event>s3:ObjectRemoved:*</Event>' +
          '<Event>s3:ObjectCreated:Copy</Event></QueueConfiguration>' +
          '<CloudFunctionConfiguration><Id>f</Id><CloudFunction>arn:aws:lambda:::f</CloudFunction>' +
          '<Event>s3:ObjectCreated:*</Event></CloudFunctionConfiguration>',
      ),
    );
    expect(rules).toEqual([
      { id: 't', arn: 'arn:aws:sns:::t', events: ['s3:ObjectCreated:Put'], prefix: 'img/', suffix: '.jpg' },
      {
        id: 'QueueConfiguration-2',
        arn: 'arn:aws:sqs:::q',
        events: ['s3:ObjectRemoved:*', 's3:ObjectCreated:Copy'],
      },
      { id: 'f', arn: 'arn:aws:lambda:::f', events: ['s3:ObjectCreated:*'] },
    ]);
    expect(parseNotificationConfig(doc(''))).toEqual([]);
    expect(parseNotificationConfig('<NotificationConfiguration/>')).toEqual([]);
  });

  it.each([
    [
      'an unknown event',
      '<QueueConfiguration><Queue>q</Queue><Event>s3:ObjectRestore:*</Event></QueueConfiguration>',
    ],
    ['no event', '<QueueConfiguration><Queue>q</Queue></QueueConfiguration>'],
    ['no ARN', '<TopicConfiguration><Event>s3:ObjectCreated:*</Event></TopicConfiguration>'],
    [
      'a filter name other than prefix/suffix',
      '<QueueConfiguration><Queue>q</Queue><Event>s3:ObjectCreated:*</Event><Filter><S3Key><FilterRule><Name>infix</Name><Value>a</Value></FilterRule></S3Key></Filter></QueueConfiguration>',
    ],
    [
      'two prefixes',
      '<QueueConfiguration><Queue>q</Queue><Event>s3:ObjectCreated:*</Event><Filter><S3Key><FilterRule><Name>prefix</Name><Value>a</Value></FilterRule><FilterRule><Name>prefix</Name><Value>b</Value></FilterRule></S3Key></Filter></QueueConfiguration>',
    ],
  ])('refuses %s with InvalidArgument', (_what, inner) => {
    expect(() => parseNotificationConfig(doc(inner))).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
  });

  it('refuses what is not a NotificationConfiguration with MalformedXML', () => {
    expect(() => parseNotificationConfig('<Other/>')).toThrow(
      expect.objectContaining({ code: 'MalformedXML' }),
    );
  });
});

describe('matchingRules', () => {
  const rules = parseNotificationConfig(
    doc(
      '<QueueConfiguration><Id>jpg</Id><Queue>q</Queue><Event>s3:ObjectCreated:*</Event><Filter><S3Key>' +
        '<FilterRule><Name>prefix</Name><Value>img/</Value></FilterRule><FilterRule><Name>suffix</Name><Value>.jpg</Value></FilterRule>' +
        '</S3Key></Filter></QueueConfiguration>' +
        '<QueueConfiguration><Id>deletes</Id><Queue>q</Queue><Event>s3:ObjectRemoved:Delete</Event></QueueConfiguration>',
    ),
  );
  const ids = (name: Parameters<typeof matchingRules>[1], key: string) =>
    matchingRules(rules, name, key).map((r) => r.id);

  it('selects by event name, wildcard and key filter', () => {
    expect(ids('ObjectCreated:Put', 'img/a.jpg')).toEqual(['jpg']);
    expect(ids('ObjectCreated:CompleteMultipartUpload', 'img/b.jpg')).toEqual(['jpg']);
    expect(ids('ObjectCreated:Put', 'img/a.png')).toEqual([]);
    expect(ids('ObjectCreated:Put', 'doc/a.jpg')).toEqual([]);
    expect(ids('ObjectRemoved:Delete', 'img/a.jpg')).toEqual(['deletes']);
    expect(ids('ObjectRemoved:DeleteMarkerCreated', 'x')).toEqual([]);
  });

  it('knows the selectors it can deliver', () => {
    expect(isEventSelector('s3:ObjectCreated:*')).toBe(true);
    expect(isEventSelector('s3:ObjectRemoved:DeleteMarkerCreated')).toBe(true);
    expect(isEventSelector('ObjectCreated:Put')).toBe(false);
    expect(isEventSelector('s3:ObjectTagging:*')).toBe(false);
  });
});

describe('event record fields', () => {
  it('encodes keys as S3 does and hands out growing sequencers', () => {
    expect(encodeEventKey('dir/a b+c.txt')).toBe('dir/a+b%2Bc.txt');
    const a = nextSequencer(1000);
    const b = nextSequencer(1000);
    const c = nextSequencer(999);
    expect(a.length).toBe(b.length);
    expect(b > a).toBe(true);
    expect(c > b).toBe(true);
  });
});
