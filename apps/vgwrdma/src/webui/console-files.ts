// The console's static files (packages/webui's vite build, copied into the app's dist/webui by
// the app's build), read once at start into memory: a path → body, type and gzip table. Only
// what the build wrote can be served; a request names a key of the table, never a file path, so
// no request can reach outside the folder. Unknown paths without an extension get index.html
// (the console routes by hash, but a reload on /buckets should still land on the app).
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { StartupError } from '@vgwrdma/errors';

/** Content types of what vite writes; anything else is not served. */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

export interface ConsoleFile {
  readonly type: string;
  readonly body: Buffer;
  /** Present when gzip makes it smaller. */
  readonly gzip?: Buffer;
  /** Hashed asset names (assets/…) may be cached for good; index.html never. */
  readonly immutable: boolean;
}

export type ConsoleFiles = ReadonlyMap<string, ConsoleFile>;

/** Where the built app keeps the console: dist/webui beside dist/main.js. */
export function defaultConsoleDir(): string {
  return fileURLToPath(new URL('./webui/', import.meta.url));
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve(e.isFile() ? [join(dir, e.name)] : []),
    ),
  );
  return nested.flat();
}

/** Reads every servable file under `dir`; throws when there is no index.html (a broken build). */
export async function loadConsoleFiles(dir: string): Promise<ConsoleFiles> {
  const files = new Map<string, ConsoleFile>();
  for (const path of await walk(dir)) {
    const ext = extname(path).toLowerCase();
    const type = TYPES[ext];
    if (type === undefined) continue;
    const body = await readFile(path);
    const zipped = COMPRESSIBLE.has(ext) ? gzipSync(body, { level: 9 }) : undefined;
    const name = `/${relative(dir, path).split(sep).join('/')}`;
    files.set(name, {
      type,
      body,
      ...(zipped !== undefined && zipped.length < body.length ? { gzip: zipped } : {}),
      immutable: name.startsWith('/assets/'),
    });
  }
  if (!files.has('/index.html'))
    throw new StartupError(`the web console's files are missing (no index.html in ${dir}); rebuild the app`);
  return files;
}

/** The file a request path names: exact, `/` → index.html, extension-less → index.html. */
export function findConsoleFile(files: ConsoleFiles, path: string): ConsoleFile | undefined {
  if (path === '/' || path === '') return files.get('/index.html');
  const exact = files.get(path);
  if (exact !== undefined) return exact;
  return extname(path) === '' ? files.get('/index.html') : undefined;
}
