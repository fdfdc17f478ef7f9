// GetBucketNotificationConfiguration / PutBucketNotificationConfiguration. The document is
// validated (events, filters, one ARN per configuration) and stored as sent; an empty document
// removes the configuration, and a bucket without one answers an empty document, as S3 does.
// Without a webhook target (--event-webhook-url) no destination can be validated, so only the
// empty document is accepted.
import { S3Error } from '@vgwrdma/backend-contract';
import { parseNotificationConfig } from '../events/index.js';
import type { Handler } from '../routes/types.js';
import { xmlDocument } from '../xml/document.js';
import { emptyResponse, readBodyText, xmlResponse } from './respond.js';

export const getBucketNotification: Handler = async (_c, req) => {
  const xml = await req.backend.getBucketNotification(req.ctx, req.bucket);
  return xmlResponse(xml ?? xmlDocument('NotificationConfiguration', ''));
};

export const putBucketNotification: Handler = async (_c, req) => {
  const xml = await readBodyText(req);
  const rules = parseNotificationConfig(xml);
  if (rules.length === 0) {
    await req.backend.deleteBucketNotification(req.ctx, req.bucket);
    return emptyResponse(200);
  }
  // req.events is there exactly when the gateway has a webhook target.
  if (req.events === undefined)
    throw S3Error.custom(
      'InvalidArgument',
      'Unable to validate the following destination configurations: this gateway has no event target (start it with --event-webhook-url).',
    );
  await req.backend.putBucketNotification(req.ctx, req.bucket, xml);
  return emptyResponse(200);
};
