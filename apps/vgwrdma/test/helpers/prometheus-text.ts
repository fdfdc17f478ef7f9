// Reads Prometheus' text exposition format into samples, so tests can ask for one series' value
// by name and labels instead of matching strings.
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1] ?? ''] = (l[2] ?? '').replace(/\\(.)/g, '$1');
    out.push({ name: m[1] ?? '', labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const hits = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (hits.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${hits.length} series`);
  return hits[0]?.value ?? 0;
}
