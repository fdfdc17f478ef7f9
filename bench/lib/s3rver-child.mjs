// The s3rver peer (npm s3rver, pinned in the root devDependencies) as its own process on
// 127.0.0.1 at an ephemeral port, storing in a temp directory. argv[2]: JSON { root }.
// Prints one JSON line {"port": N} when ready; SIGTERM closes it and exits 0.

import S3rver from 's3rver';

const opts = JSON.parse(process.argv[2] ?? '{}');
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: opts.root });
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
