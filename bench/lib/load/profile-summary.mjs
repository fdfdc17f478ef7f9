#!/usr/bin/env node
// Top self-time functions of a V8 .cpuprofile (node --cpu-prof): `node profile-summary.mjs FILE [N]`.
// Self time of a node = the sampling intervals whose top frame it was; summed per function
// (name, file, line), printed as a markdown table, highest first.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const [file, top = '25'] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
let total = 0;
prof.samples.forEach((id, i) => {
  const dt = prof.timeDeltas[i] ?? 0;
  const f = byId.get(id).callFrame;
  const name =
    `${f.functionName || '(anonymous)'} ${f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
  self.set(name, (self.get(name) ?? 0) + dt);
  total += dt;
});
const idle = ['(idle)', '(program)', '(garbage collector)'];
const busy = total - (self.get('(idle)') ?? 0);
console.log(`| self ms | % of busy | function |\n|---:|---:|---|`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(
    `| ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)} | ${idle.includes(name) ? name : `\`${name}\``} |`,
  );
console.log(`\nbusy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled`);
