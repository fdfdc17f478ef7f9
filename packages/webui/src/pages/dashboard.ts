// The dashboard: the console listener's stats (admin accounts), polled every two seconds —
// requests/s, bytes/s by HTTP and by RDMA, PUT/GET latency percentiles, the RDMA buffer pool,
// declines by reason and transfers per agent. Rates come from the difference of two snapshots.
import { fetchStats } from '../admin.js';
import { config } from '../config.js';
import { formatBytes, h, replace, table } from '../dom.js';
import { session } from '../session.js';
import { errorBox, heading } from '../ui.js';

const POLL_MS = 2000;

interface Latency {
  samples: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

interface Stats {
  at: number;
  requests: { total: number; errors: number; inFlight: number };
  http: { bytesIn: number; bytesOut: number };
  latencyMs: { put: Latency; get: Latency };
  rdma?: {
    transport: string;
    bytesIn: number;
    bytesOut: number;
    puts: number;
    gets: number;
    failures: number;
    declines: Record<string, number>;
    pool: { count: number; bufferSize: number; inUse: number; free: number; waiting: number };
    agents: { agent: string; transfers: number; bytes: number }[];
  };
}

const ms = (v: number | null) => (v === null ? '–' : `${v.toFixed(1)} ms`);

function card(label: string, value: string, id: string, sub?: string): HTMLElement {
  return h(
    'div',
    { class: 'card stat' },
    h('div', { class: 'label' }, label),
    h('div', { class: 'value', id }, value),
    sub ? h('div', { class: 'muted' }, sub) : null,
  );
}

function bar(used: number, total: number): HTMLElement {
  const pct = total === 0 ? 0 : Math.round((used / total) * 100);
  const fill = h('div', { class: 'fill' });
  // Through the CSSOM: the CSP allows no inline style attributes.
  fill.style.width = `${pct}%`;
  return h('div', { class: 'bar', title: `${pct} %` }, fill);
}

function render(view: HTMLElement, now: Stats, before: Stats | undefined): void {
  const secs = before ? Math.max(0.001, (now.at - before.at) / 1000) : 0;
  const rate = (a: number, b: number | undefined) => (before && b !== undefined ? (a - b) / secs : 0);
  const r = now.rdma;
  const rb = before?.rdma;
  const httpRate = rate(
    now.http.bytesIn + now.http.bytesOut,
    before ? before.http.bytesIn + before.http.bytesOut : undefined,
  );
  const rdmaRate = r ? rate(r.bytesIn + r.bytesOut, rb ? rb.bytesIn + rb.bytesOut : undefined) : 0;
  replace(
    view,
    h(
      'div',
      { class: 'cards' },
      card(
        'Requests/s',
        rate(now.requests.total, before?.requests.total).toFixed(1),
        'req-rate',
        `${now.requests.total} total, ${now.requests.inFlight} in flight`,
      ),
      card(
        'HTTP bytes/s',
        `${formatBytes(httpRate)}/s`,
        'http-rate',
        `${formatBytes(now.http.bytesIn)} in, ${formatBytes(now.http.bytesOut)} out`,
      ),
      card(
        'RDMA bytes/s',
        r ? `${formatBytes(rdmaRate)}/s` : 'off',
        'rdma-rate',
        r ? `${r.transport}: ${r.puts} PUTs, ${r.gets} GETs` : 'start the gateway with --rdma-ip',
      ),
      card(
        'RDMA bytes total',
        r ? String(r.bytesIn + r.bytesOut) : '0',
        'rdma-bytes-total',
        r ? `${formatBytes(r.bytesIn)} read, ${formatBytes(r.bytesOut)} written` : '',
      ),
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'RDMA vs HTTP (bytes/s)'),
      bar(rdmaRate, rdmaRate + httpRate),
      h('p', { class: 'muted' }, `RDMA ${formatBytes(rdmaRate)}/s · HTTP ${formatBytes(httpRate)}/s`),
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Latency (recent successful requests)'),
      table(
        ['', 'samples', 'p50', 'p90', 'p99'],
        (['put', 'get'] as const).map((k) => [
          k.toUpperCase(),
          String(now.latencyMs[k].samples),
          ms(now.latencyMs[k].p50),
          ms(now.latencyMs[k].p90),
          ms(now.latencyMs[k].p99),
        ]),
        { id: 'latency' },
      ),
    ),
    r
      ? h(
          'div',
          { class: 'grid2' },
          h(
            'section',
            { class: 'card', id: 'pool' },
            h('h2', {}, 'Buffer pool'),
            bar(r.pool.inUse, r.pool.count),
            h(
              'p',
              {},
              `${r.pool.inUse} in use, ${r.pool.free} free of ${r.pool.count} × ${formatBytes(r.pool.bufferSize)}; ${r.pool.waiting} waiting`,
            ),
          ),
          h(
            'section',
            { class: 'card' },
            h('h2', {}, 'RDMA declines by reason'),
            table(
              ['reason', 'count'],
              Object.entries(r.declines).map(([k, v]) => [k, String(v)]),
              { id: 'declines' },
            ),
            h('p', { class: 'muted' }, `${r.failures} failed transfers`),
          ),
        )
      : null,
    r
      ? h(
          'section',
          { class: 'card' },
          h('h2', {}, 'Transfers per agent'),
          r.agents.length === 0
            ? h('p', { class: 'muted' }, 'No RDMA transfers yet.')
            : table(
                ['agent host', 'transfers', 'bytes'],
                r.agents.map((a) => [a.agent, String(a.transfers), formatBytes(a.bytes)]),
                { id: 'agents' },
              ),
        )
      : null,
  );
}

export function dashboardPage(main: HTMLElement): (() => void) | undefined {
  main.append(heading('Dashboard', h('span', { class: 'muted' }, `gateway ${config().version}`)));
  if (!session()?.admin) {
    main.append(
      h(
        'p',
        { class: 'notice' },
        'The dashboard shows gateway-wide figures and needs an admin account. Use Buckets to see your own data.',
      ),
    );
    return undefined;
  }
  const view = h('div', { id: 'dashboard' });
  const status = h('div', {});
  main.append(status, view);
  let before: Stats | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      const now = (await fetchStats()) as Stats;
      if (stopped) return;
      status.replaceChildren();
      render(view, now, before);
      before = now;
    } catch (error) {
      if (!stopped) status.replaceChildren(errorBox(error));
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), POLL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
