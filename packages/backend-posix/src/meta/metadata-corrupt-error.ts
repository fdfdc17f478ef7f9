// Stored metadata that does not match itself: an overflow file whose SHA-256 is not the one its
// marker attribute records (changed or truncated outside the gateway). A catalogue member
// (docs/errors.md); the gateway answers such a request with 500 InternalError.
import { VgwrdmaError } from '@vgwrdma/errors';

export class MetadataCorruptError extends VgwrdmaError<'VGW_ERR_POSIX_METADATA_CORRUPT'> {
  override readonly name = 'MetadataCorruptError';
  constructor(message: string) {
    super('VGW_ERR_POSIX_METADATA_CORRUPT', message);
  }
}
