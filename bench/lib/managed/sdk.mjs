// The AWS SDK for the managed benchmark. In the bundle (bench/device/bundle.mjs) esbuild bundles
// the static-string import below; in the workspace the SDK is cuobjtest's dependency, not the
// root's, so it is required from there (as bench/lib/listing.mjs does).
import { createRequire } from 'node:module';

async function loadSdk() {
  try {
    return await import('@aws-sdk/client-s3');
  } catch {
    return createRequire(new URL('../../../packages/cuobjtest/package.json', import.meta.url))(
      '@aws-sdk/client-s3',
    );
  }
}

export const sdk = await loadSdk();
