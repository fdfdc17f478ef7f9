// The GPU client image's non-container step (docker/Dockerfile runs docker/bundle.mjs): the
// bundle it makes runs with nothing but Node — the launcher finds its own shim library, -help
// works, an RDMA round trip against a gateway process verifies, and so does one from GPU memory
// on native-shims' fake CUDA runtime (the image gets the real libcudart from nvidia/cuda). The
// Dockerfile itself is checked for the steps it runs; building it needs Docker and the registry.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EMBEDDED_CREDENTIALS, EmbeddedGateway, FAKE_CUDART } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const DOCKER = fileURLToPath(new URL('../docker/', import.meta.url));

describe('the GPU client image: bundle.mjs', () => {
  let out: string;
  let gw: EmbeddedGateway;

  beforeAll(async () => {
    out = join(await mkdtemp(join(tmpdir(), 'cuobjtest-bundle-')), 'opt');
    await run(process.execPath, [join(DOCKER, 'bundle.mjs'), out], { maxBuffer: 8 << 20 });
    gw = await EmbeddedGateway.start();
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
    if (out) await rm(join(out, '..'), { recursive: true, force: true });
  });

  /** The bundle's launcher with a bare environment: PATH (for node) and what the test adds. */
  async function launcher(args: string[], env: Record<string, string> = {}) {
    const dir = join(process.execPath, '..');
    return run(join(out, 'cuobjtest'), args, {
      env: { PATH: `${dir}:/usr/bin:/bin`, CI: '1', ...env },
      maxBuffer: 8 << 20,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  }

  it('lays out the launcher, the bundle, koffi and the shim library', async () => {
    for (const f of [
      'cuobjtest',
      'cuobjtest.mjs',
      'node_modules/koffi/package.json',
      'lib/libvgwrdma_shims.so',
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    expect((await stat(join(out, 'cuobjtest'))).mode & 0o111).not.toBe(0);
  });

  it('runs -help without the workspace', async () => {
    const r = await launcher(['-help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n\s+cuobjtest \[flags\]/m);
  });

  it('an RDMA round trip (softnic) from the bundle verifies', async () => {
    const r = await launcher(
      ['-endpoint', gw.endpoint, '-access', EMBEDDED_CREDENTIALS.accessKeyId, '-size', '1MiB', '-n', '1'],
      { AWS_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {12}mode=host-memory-cuobject-token$/m);
    expect(r.stdout).toMatch(/\nAll checksums OK\.\n$/);
  });

  it('--memory cuda from the bundle verifies on a CUDA runtime (the fake one here)', async () => {
    const r = await launcher(
      [
        '-endpoint',
        gw.endpoint,
        '-access',
        EMBEDDED_CREDENTIALS.accessKeyId,
        '-size',
        '1MiB',
        '-n',
        '1',
        '--memory',
        'cuda',
      ],
      { AWS_SECRET_ACCESS_KEY: EMBEDDED_CREDENTIALS.secretAccessKey, VGWRDMA_CUDA_LIB: FAKE_CUDART },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {12}mode=real-cuda-cuobject-token$/m);
    expect(r.stdout).toMatch(/\nAll checksums OK\.\n$/);
  });

  it('the Dockerfile builds the workspace, runs this bundle step and starts from the CUDA runtime image', async () => {
    const text = await readFile(join(DOCKER, 'Dockerfile'), 'utf8');
    expect(text).toMatch(
      /^RUN npm run build && node packages\/cuobjtest\/docker\/bundle\.mjs \/opt\/cuobjtest$/m,
    );
    expect(text).toMatch(/^ARG CUDA_IMAGE=nvidia\/cuda:[\d.]+-runtime-/m);
    expect(text).toMatch(/^FROM \$\{CUDA_IMAGE\}$/m);
    expect(text).toMatch(/^ENTRYPOINT \["\/opt\/cuobjtest\/cuobjtest"\]$/m);
  });
});
