// @vgwrdma/native/kernels: native hashing for @vgwrdma/backend-contract's checksum registry (CRC64NVME
// and CRC32C on PCLMULQDQ/SSE4.2, MD5 and SHA-256 off the main thread on OpenSSL). A subpath of
// its own so that the loader's main entry does not need s3-backend.
export {
  type InstallNativeKernelsOptions,
  installNativeKernels,
  type NativeKernelsStatus,
} from './install-kernels.js';
export { nativeCrc } from './native-crc.js';
export { nativeDigests } from './native-digest.js';
