// Who signed a POST form. SigV4: `x-amz-algorithm`, `x-amz-credential`, `x-amz-date` and
// `x-amz-signature` = hex HMAC-SHA256 of the base64 policy under the credential's signing key.
// SigV2 (still sent by browsers' older upload widgets and by the s3-tests suite):
// `AWSAccessKeyId` and `signature` = base64 HMAC-SHA1 of the base64 policy under the secret.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Account, S3Error } from '@vgwrdma/backend-contract';
import { parseAmzDate } from '../auth/amz-date.js';
import { parseCredential } from '../auth/credential-scope.js';
import { authErrors } from '../auth/messages.js';
import { ALGORITHM, hmacHex, signaturesEqual, signingKey } from '../auth/signing.js';
import type { CredentialStore, SigningFacts } from '../auth/types.js';

export interface FormSigner {
  readonly account: Account;
  readonly accessKey: string;
  /** s3:signatureversion and s3:authType POST for the policy step. */
  readonly signing: SigningFacts;
}

/** S3's words for a form that lacks a field it needs. */
export function missingField(name: string): S3Error {
  return S3Error.custom(
    'InvalidArgument',
    `Bucket POST must contain a field named '${name}'.  If it is specified, please check the order of the fields.`,
    { detail: { ArgumentName: name, ArgumentValue: '' } },
  );
}

function required(fields: ReadonlyMap<string, string>, name: string): string {
  const value = fields.get(name);
  if (value === undefined || value === '') throw missingField(name);
  return value;
}

/** Verifies the form's signature over `policy`; the signer's account, or an S3Error. */
export async function verifyFormSignature(
  fields: ReadonlyMap<string, string>,
  policy: string,
  store: CredentialStore,
  region: string,
): Promise<FormSigner> {
  if (fields.has('awsaccesskeyid') && !fields.has('x-amz-credential')) return verifyV2(fields, policy, store);
  const algorithm = required(fields, 'x-amz-algorithm');
  if (algorithm !== ALGORITHM) throw authErrors.unsupportedMechanism();
  const scope = parseCredential(required(fields, 'x-amz-credential'), 'query', region, 's3');
  const signedAt = parseAmzDate(required(fields, 'x-amz-date'));
  if (!signedAt) throw authErrors.queryBadDate();
  const signature = required(fields, 'x-amz-signature');
  const credential = await store.lookup(scope.accessKey);
  if (!credential) throw authErrors.unknownKey();
  const key = signingKey(credential.secret, scope.date, scope.region, scope.service);
  if (!signaturesEqual(hmacHex(key, policy), signature.toLowerCase())) throw authErrors.badSignature();
  return {
    account: credential.account,
    accessKey: scope.accessKey,
    signing: { version: ALGORITHM, authType: 'POST', signedAt },
  };
}

async function verifyV2(
  fields: ReadonlyMap<string, string>,
  policy: string,
  store: CredentialStore,
): Promise<FormSigner> {
  const accessKey = required(fields, 'awsaccesskeyid');
  const signature = required(fields, 'signature');
  const credential = await store.lookup(accessKey);
  if (!credential) throw authErrors.unknownKey();
  const expected = createHmac('sha1', credential.secret).update(policy).digest();
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw authErrors.badSignature();
  return { account: credential.account, accessKey, signing: { version: 'AWS', authType: 'POST' } };
}
