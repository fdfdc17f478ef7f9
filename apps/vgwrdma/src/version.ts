// The package version, read from package.json at run time (the same relative path works from
// src/ under vitest and from dist/ once built).
import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

export const VERSION: string = pkg.version;
