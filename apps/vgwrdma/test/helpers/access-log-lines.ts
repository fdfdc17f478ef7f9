// Reading access logs as an ingester would: AWS's server access log format by position (29
// fields: unquoted ones without spaces or quotes, the time in brackets, the request URI, referer
// and user agent in double quotes with no quote inside — the strict shape Athena-style regexes
// expect), JSON lines with JSON.parse plus a duplicate-key check JSON.parse would hide. And a raw
// request: bytes written to a socket as given, for what no HTTP client will send.
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

const U = '([^ "\\[\\]]+)';
const Q = '"([^"]*)"';
/** Positions 9, 16, 17 (1-based) quoted, 3 the [time], the rest unquoted: 29 fields in all. */
const S3_LINE = new RegExp(
  `^${[U, U, '\\[([^\\]]*)\\]', U, U, U, U, U, Q, U, U, U, U, U, U, Q, Q, ...Array(12).fill(U)].join(' ')}$`,
);

/** The 29 fields of one `s3`-format line, or undefined when the line does not have that shape. */
export function s3LogFields(line: string): string[] | undefined {
  const m = S3_LINE.exec(line);
  return m ? m.slice(1) : undefined;
}

/** A file's lines, split on every line terminator an ingester might honour. */
export function logLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\u2028\u2029\u0085\v\f]/).filter((l) => l !== '');
}

/** The top-level keys that appear more than once in one JSON object line. */
export function duplicateKeys(line: string): string[] {
  const seen = new Map<string, number>();
  let depth = 0;
  // A string token, or a structural character; keys are strings at depth 1 followed by ':'.
  for (const m of line.matchAll(/"(?:[^"\\]|\\.)*"(\s*:)?|[{}[\]]/g)) {
    const t = m[0];
    if (t === '{' || t === '[') depth++;
    else if (t === '}' || t === ']') depth--;
    else if (depth === 1 && m[1] !== undefined) {
      const key = JSON.parse(t.slice(0, t.length - m[1].length)) as string;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
}

/** Writes `request` (latin1 bytes) to 127.0.0.1:`port` and answers everything read until close. */
export function rawExchange(port: number, request: string, tls?: { ca: Buffer }): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls
      ? tlsConnect({ host: '127.0.0.1', port, ca: [tls.ca], servername: 'localhost' })
      : netConnect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on(tls ? 'secureConnect' : 'connect', () => socket.write(Buffer.from(request, 'latin1')));
    socket.on('data', (b: Buffer) => chunks.push(b));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}
