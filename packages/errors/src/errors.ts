// The project's one error family: every error a package or command of vgwrdma throws is a
// `VgwrdmaError` (or a subclass), whose `code` is a stable `VGW_ERR_*` string from the one table
// below (undici's `UND_ERR_*` is the model); `InvalidArgumentError` and `InvalidStateError` are the
// shared classes for misuse of any package's API. Callers branch on `code`, never on message
// text; docs/errors.md explains every code, and a test fails when the two lists differ.
// S3 errors are another vocabulary on purpose: `S3Error.code` is the S3 wire code.

/** Every code a `VgwrdmaError` may carry, grouped by the class that raises it. */
export const VGW_ERROR_CODES = {
  ByteSizeError: ['VGW_ERR_INVALID_BYTE_SIZE'],
  /** The command line of vgwrdma or cuobjtest is wrong (exit status 2). */
  UsageError: ['VGW_ERR_USAGE'],
  /** vgwrdma could not start: root missing, no xattrs, RDMA provider unavailable (exit status 1). */
  StartupError: ['VGW_ERR_STARTUP'],
  RdmaError: ['VGW_ERR_RDMA_NATIVE'],
  /** @vgwrdma/native: libvgwrdma_shims (or a provider of it) cannot be used. */
  NativeLoadError: [
    'VGW_ERR_NATIVE_UNSUPPORTED_PLATFORM',
    'VGW_ERR_NATIVE_LIBRARY_NOT_FOUND',
    'VGW_ERR_NATIVE_LOAD_FAILED',
    'VGW_ERR_NATIVE_ABI_MISMATCH',
    'VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE',
    'VGW_ERR_NATIVE_DUPLICATE_KOFFI',
  ],
  PoolError: ['VGW_ERR_POOL_TIMEOUT', 'VGW_ERR_POOL_CLOSED'],
  /** cu-backend: a GET's backend body is not the length it announced (the RDMA leg fails, 500). */
  BodyLengthError: ['VGW_ERR_RDMA_BODY_LENGTH'],
  /** cu-backend: CuServer cannot take a transfer now; never leaves it (a 501 decline / GET by HTTP). */
  RdmaDeclinedError: ['VGW_ERR_RDMA_DECLINED'],
  CuObjError: [
    'VGW_ERR_CUOBJ_UNAVAILABLE',
    'VGW_ERR_CUOBJ_INVALID_OPTION',
    'VGW_ERR_CUOBJ_SIZE_MISMATCH',
    'VGW_ERR_CUOBJ_SESSION_BUSY',
    'VGW_ERR_CUOBJ_SESSION_CLOSED',
    'VGW_ERR_CUOBJ_NO_RDMA_REPLY',
    'VGW_ERR_CUOBJ_DECLINED',
    'VGW_ERR_CUOBJ_BAD_REPLY',
    'VGW_ERR_CUOBJ_BYTES_MISMATCH',
    'VGW_ERR_CUOBJ_GATEWAY_ERROR',
    'VGW_ERR_CUOBJ_BODY_LENGTH',
    'VGW_ERR_CUOBJ_CHECKSUM_MISMATCH',
    'VGW_ERR_CUOBJ_WRONG_MEMORY',
    'VGW_ERR_CUOBJ_PART_FAILED',
    'VGW_ERR_CUOBJ_ABORTED',
    'VGW_ERR_CUOBJ_DESTINATION_TOO_SMALL',
  ],
  /** Any package: a bad argument or option value passed to a public call (undici's InvalidArgumentError). */
  InvalidArgumentError: ['VGW_ERR_INVALID_ARGUMENT'],
  /** Any package: a call its object's state no longer allows (used after close(), release() or end). */
  InvalidStateError: ['VGW_ERR_INVALID_STATE'],
  /** @vgwrdma/rdma-protocol: an x-amz-rdma-token that is not supported (RC form) or not well formed. */
  RdmaTokenError: ['VGW_ERR_RDMA_TOKEN_UNSUPPORTED', 'VGW_ERR_RDMA_TOKEN_MALFORMED'],
  /** @vgwrdma/native: `npx @vgwrdma/native build` refused its command line or could not build. */
  BuildCommandError: ['VGW_ERR_NATIVE_BUILD_USAGE', 'VGW_ERR_NATIVE_BUILD_FAILED'],
  /** @vgwrdma/cuobjclient (internal): an RDMA request the S3 client failed, with the raw answer. */
  RdmaRequestError: ['VGW_ERR_CUOBJ_REQUEST_FAILED'],
  /** @vgwrdma/backend-posix: the root's filesystem keeps no user.* extended attributes. */
  XattrUnsupportedError: ['VGW_ERR_POSIX_XATTR_UNSUPPORTED'],
  /** @vgwrdma/backend-posix: stored metadata that does not match itself (an overflow file). */
  MetadataCorruptError: ['VGW_ERR_POSIX_METADATA_CORRUPT'],
  /** @vgwrdma/backend-s3: the meta bucket is missing upstream. */
  MetaBucketMissingError: ['VGW_ERR_S3_META_BUCKET_MISSING'],
  /** @vgwrdma/backend-azure: the service cannot be reached with the credentials. */
  AzureUnreachableError: ['VGW_ERR_AZURE_UNREACHABLE'],
  /** vgwrdma admin: the admin listener did not answer. */
  UnreachableError: ['VGW_ERR_ADMIN_UNREACHABLE'],
  /** vgwrdma: an IAM account store (LDAP, S3 bucket) cannot be read or holds a bad entry. */
  AccountStoreError: ['VGW_ERR_IAM_STORE_UNREADABLE', 'VGW_ERR_IAM_STORE_BAD_ENTRY'],
  /** The web console (browser): an S3 error answer, no answer at all, an upload the user aborted. */
  S3ApiError: ['VGW_ERR_WEBUI_S3_ERROR'],
  NetworkError: ['VGW_ERR_WEBUI_NETWORK'],
  AbortedError: ['VGW_ERR_WEBUI_ABORTED'],
} as const;

type CodeTable = typeof VGW_ERROR_CODES;

/** The codes of one class of the table, e.g. `VgwErrorCodeOf<'PoolError'>`. */
export type VgwErrorCodeOf<K extends keyof CodeTable> = CodeTable[K][number];

/** Any code of the family. */
export type VgwErrorCode = VgwErrorCodeOf<keyof CodeTable>;

/** The base of the family: `code` is stable, the message is for people. */
export class VgwrdmaError<C extends VgwErrorCode = VgwErrorCode> extends Error {
  override readonly name: string = 'VgwrdmaError';
  readonly code: C;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A bad argument or option value passed to a public call; the message names it and what is accepted. */
export class InvalidArgumentError extends VgwrdmaError<'VGW_ERR_INVALID_ARGUMENT'> {
  override readonly name: string = 'InvalidArgumentError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('VGW_ERR_INVALID_ARGUMENT', message, options);
  }
}

/** A call the object's state no longer allows (after close(), release(), end); the message says which. */
export class InvalidStateError extends VgwrdmaError<'VGW_ERR_INVALID_STATE'> {
  override readonly name: string = 'InvalidStateError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('VGW_ERR_INVALID_STATE', message, options);
  }
}

/** Whether `e` belongs to the family (and carries `code`, when one is given). */
export function isVgwrdmaError(e: unknown, code?: VgwErrorCode): e is VgwrdmaError {
  return e instanceof VgwrdmaError && (code === undefined || e.code === code);
}
