// The logger shape the gateway writes to: a subset of pino's, so a pino instance can be passed
// as is. The default writes warnings and errors to stderr as JSON lines (stdout stays clean).

type LogFn = (obj: object, msg?: string) => void;

export interface Logger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  debug: LogFn;
}

function stderrLine(level: string): LogFn {
  return (obj, msg) => {
    const line: Record<string, unknown> = { level, time: Date.now(), ...serializable(obj) };
    if (msg !== undefined) line.msg = msg;
    process.stderr.write(`${JSON.stringify(line)}\n`);
  };
}

/** Error objects do not JSON-serialize their message or stack; spell them out. */
function serializable(obj: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] = v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
  }
  return out;
}

const noop: LogFn = () => {};

export const defaultLogger: Logger = {
  info: noop,
  debug: noop,
  warn: stderrLine('warn'),
  error: stderrLine('error'),
};
