// Runs the cuobjtest CLI (packages/cuobjtest/dist/main.js) as a child process with --json (and
// -server-pid of the server it drives, so each timed iteration also carries the server's CPU time)
// and returns the parsed document; a non-zero exit keeps the document (failures are in it) when one
// was printed, and otherwise throws with stderr.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

let bin = fileURLToPath(new URL('../../packages/cuobjtest/dist/main.js', import.meta.url));

/** Another cuobjtest bin (the bundled one on a machine without the workspace). */
export function useCuobjtestBin(path) {
  bin = path;
}

export function cuobjtest(server, args) {
  const pid = server.pid === undefined ? [] : ['-server-pid', String(server.pid)];
  const argv = [bin, '-endpoint', server.endpoint, '-access', server.access, '--json', ...pid, ...args];
  const env = { ...process.env, AWS_SECRET_ACCESS_KEY: server.secret, CI: '1' };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      try {
        const doc = JSON.parse(stdout);
        if (err && !hasFailures(doc)) throw err;
        resolve(doc);
      } catch {
        reject(
          new Error(`cuobjtest ${args.join(' ')} against ${server.kind} failed: ${stderr.slice(-2000)}`),
        );
      }
    });
  });
}

function hasFailures(doc) {
  return [doc].flat().some((r) => r.verified === false);
}
