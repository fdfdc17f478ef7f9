// The --help lines of a list of options: names, placeholder, help, default and environment
// variables, in columns. Generated from the schemas, so help cannot drift from what is parsed.
import type { CliOption } from './option.js';

export function helpLines(options: readonly CliOption[]): string {
  const rows = options.map((o) => {
    const longs = [o.name, ...o.aliases].map((name) => `--${name}`).join(', ');
    const names = `${o.short ? `-${o.short}, ` : '    '}${longs}${o.arg ? ` ${o.arg}` : ''}`;
    const extras = [
      o.default !== undefined && o.default !== false ? `default ${String(o.default)}` : '',
      o.env.length > 0 ? `env ${o.env.join(', ')}` : '',
    ].filter(Boolean);
    return { names, help: extras.length > 0 ? `${o.help} [${extras.join('; ')}]` : o.help };
  });
  const width = Math.max(...rows.map((row) => row.names.length)) + 2;
  return rows.map((row) => `  ${row.names.padEnd(width)}${row.help}`).join('\n');
}
