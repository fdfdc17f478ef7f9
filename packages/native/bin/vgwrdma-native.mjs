#!/usr/bin/env node
// `npx @vgwrdma/native build`: a committed entry (so installs link the bin before dist/ exists)
// that runs the built command line, dist/cli.js.
await import('../dist/cli.js');
