// The checksum a client asks for on an upload (PutObject, UploadPart, CompleteMultipartUpload):
// x-amz-checksum-<alg> with its value, x-amz-sdk-checksum-algorithm, or the aws-chunked trailer
// named by x-amz-trailer. Validated here with the catalogue's messages; the value itself is
// verified by the backend over the bytes it stores.
import {
  algorithmOfHeader,
  type ChecksumAlgorithm,
  type ChecksumRequest,
  type ChecksumType,
  parseChecksumAlgorithm,
  S3Error,
  type S3ErrorMessage,
} from '@vgwrdma/backend-contract';
import { header, type RawHeaders } from './headers.js';

const NOT_CHECKSUM_VALUES = new Set([
  'x-amz-checksum-mode',
  'x-amz-checksum-type',
  'x-amz-checksum-algorithm',
]);

interface ChecksumHeaders {
  algorithm: ChecksumAlgorithm;
  /** The value sent as a header; undefined when it comes as a trailer. */
  value?: string;
  /** The trailer that will carry the value (x-amz-trailer), lower-case. */
  trailer?: string;
}

function invalid(message: S3ErrorMessage<'InvalidRequest'>): S3Error {
  return new S3Error('InvalidRequest', message);
}

/** Parses and cross-checks the checksum headers; undefined when the request carries none. */
export function parseChecksumHeaders(headers: RawHeaders): ChecksumHeaders | undefined {
  const valueHeaders = Object.keys(headers).filter(
    (n) => n.startsWith('x-amz-checksum-') && !NOT_CHECKSUM_VALUES.has(n),
  );
  if (valueHeaders.length > 1)
    throw invalid('Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.');

  const sdkRaw = header(headers, 'x-amz-sdk-checksum-algorithm');
  const sdkAlgorithm = parseChecksumAlgorithm(sdkRaw);
  if (sdkRaw !== undefined && sdkAlgorithm === undefined) {
    throw invalid(
      'Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, MD5, SHA1, SHA256, SHA512, XXHASH128, XXHASH3, XXHASH64]',
    );
  }

  const trailerRaw = header(headers, 'x-amz-trailer')?.trim().toLowerCase();
  let trailerAlgorithm: ChecksumAlgorithm | undefined;
  if (trailerRaw !== undefined && trailerRaw !== '') {
    trailerAlgorithm = algorithmOfHeader(trailerRaw);
    if (trailerAlgorithm === undefined)
      throw invalid('The value specified in the x-amz-trailer header is not supported');
  }

  const valueHeader = valueHeaders[0];
  if (valueHeader !== undefined) {
    const algorithm = algorithmOfHeader(valueHeader);
    if (algorithm === undefined)
      throw invalid('The algorithm type you specified in x-amz-checksum- header is invalid.');
    if (
      (sdkAlgorithm && sdkAlgorithm !== algorithm) ||
      (trailerAlgorithm && trailerAlgorithm !== algorithm)
    ) {
      throw invalid('Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.');
    }
    return { algorithm, value: header(headers, valueHeader) ?? '' };
  }
  if (trailerAlgorithm !== undefined) {
    if (sdkAlgorithm && sdkAlgorithm !== trailerAlgorithm) {
      throw invalid('Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.');
    }
    return { algorithm: trailerAlgorithm, trailer: trailerRaw as string };
  }
  if (sdkAlgorithm !== undefined) {
    throw invalid(
      'x-amz-sdk-checksum-algorithm specified, but no corresponding x-amz-checksum-* or x-amz-trailer headers were found.',
    );
  }
  return undefined;
}

/** The backend's ChecksumRequest; a trailer value is read from the body once it has ended. */
export function checksumRequest(
  parsed: ChecksumHeaders | undefined,
  trailer: (name: string) => string | undefined,
  type?: ChecksumType,
): ChecksumRequest | undefined {
  if (!parsed) return undefined;
  const { value, trailer: name } = parsed;
  const expected = value !== undefined ? () => value : () => (name ? trailer(name) : undefined);
  return {
    algorithm: parsed.algorithm,
    ...(type ? { type } : {}),
    expected,
    ...(value !== undefined ? { upfront: value } : {}),
  };
}

/** Content-MD5, checked for shape (base64 of 16 bytes); InvalidDigest otherwise. */
export function parseContentMD5(headers: RawHeaders): string | undefined {
  const v = header(headers, 'content-md5');
  if (v === undefined) return undefined;
  if (!/^[A-Za-z0-9+/]{22}==$/.test(v.trim())) throw new S3Error('InvalidDigest');
  return v.trim();
}

/** x-amz-checksum-algorithm (CreateMultipartUpload, CopyObject): a supported name or InvalidRequest. */
export function parseChecksumAlgorithmHeader(headers: RawHeaders): ChecksumAlgorithm | undefined {
  const raw = header(headers, 'x-amz-checksum-algorithm');
  if (raw === undefined) return undefined;
  const alg = parseChecksumAlgorithm(raw);
  if (!alg) {
    throw invalid(
      'Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, MD5, SHA1, SHA256, SHA512, XXHASH128, XXHASH3, XXHASH64]',
    );
  }
  return alg;
}

/** x-amz-checksum-type: COMPOSITE or FULL_OBJECT, only with x-amz-checksum-algorithm. */
export function parseChecksumType(headers: RawHeaders, requireAlgorithm: boolean): ChecksumType | undefined {
  const raw = header(headers, 'x-amz-checksum-type');
  if (raw === undefined) return undefined;
  if (requireAlgorithm && header(headers, 'x-amz-checksum-algorithm') === undefined) {
    throw invalid(
      'The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.',
    );
  }
  const t = raw.toUpperCase();
  if (t !== 'COMPOSITE' && t !== 'FULL_OBJECT') throw invalid('Invalid Request.');
  return t;
}
