// versitygw's admin flags have multi-letter aliases written with one dash (`-er URL`, `-ui 7`),
// which node:util parseArgs would read as a cluster of short flags. Before parsing, a word that is
// one dash plus a known multi-letter alias (optionally `=value`) becomes `--alias`.
import type { CliOption } from '@vgwrdma/cli-options';

export function longFormAliases(argv: readonly string[], flags: readonly CliOption[]): string[] {
  const aliases = new Set(flags.flatMap((f) => f.aliases.filter((a) => a.length > 1)));
  const out: string[] = [];
  for (const [i, word] of argv.entries()) {
    if (word === '--') return [...out, ...argv.slice(i)];
    const m = /^-([A-Za-z][\w-]+)(=.*)?$/.exec(word);
    out.push(m?.[1] !== undefined && aliases.has(m[1]) ? `-${word}` : word);
  }
  return out;
}
