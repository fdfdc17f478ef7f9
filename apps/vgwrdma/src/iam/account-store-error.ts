// Why an IAM account store (LDAP, an S3 bucket) cannot serve: a catalogue member (docs/errors.md),
// so the start-up report names the store and a caller branches on `code`, not on the text.
import { type VgwErrorCodeOf, VgwrdmaError } from '@vgwrdma/errors';

export type AccountStoreErrorCode = VgwErrorCodeOf<'AccountStoreError'>;

/** The store cannot be read (bind refused, bucket unreadable) or holds an entry it cannot use. */
export class AccountStoreError extends VgwrdmaError<AccountStoreErrorCode> {
  override readonly name = 'AccountStoreError';
}
