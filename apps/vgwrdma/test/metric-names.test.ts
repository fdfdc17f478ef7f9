// The Prometheus metrics' shape: vgwrdma_build_info{version,node,abi} is always there; counters end
// in _total and gauges never do (in the registry and in every metric the sources declare);
// per-bucket counters appear only with --metrics-per-bucket; and the Grafana dashboard selects by
// its `job` and `instance` variables and rates over $__rate_interval.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestObservation } from '@vgwrdma/gateway';
import { IDLE_LIMIT_STATS } from '@vgwrdma/test-kit';
import { describe, expect, it } from 'vitest';
import { createAppMetrics } from '../src/metrics/index.js';
import { VERSION } from '../src/version.js';

const SRC = fileURLToPath(new URL('../src/metrics/', import.meta.url));
const DASHBOARD = fileURLToPath(new URL('../../../deploy/grafana/vgwrdma-dashboard.json', import.meta.url));

const EVENTS = { queued: 0, sending: 0, delivered: 0, retried: 0, dropped: 0, failed: 0 };

function observation(bucket: string, bytesReceived: number): RequestObservation {
  return {
    requestId: 'r',
    startedAt: 0,
    remoteAddress: '127.0.0.1',
    method: 'PUT',
    url: `/${bucket}/k`,
    operation: 'PutObject',
    bucket,
    key: 'k',
    status: 200,
    errorCode: undefined,
    bytesSent: 0,
    bytesReceived,
    objectSize: bytesReceived,
    userAgent: undefined,
    referer: undefined,
    host: undefined,
    accessKey: 'a',
    signatureVersion: 'SigV4',
    authType: 'AuthHeader',
    tlsVersion: undefined,
    tlsCipher: undefined,
    totalMs: 1,
    firstByteMs: 1,
    completed: true,
  };
}

describe('metric names', () => {
  it('has vgwrdma_build_info with the version, Node and ABI', async () => {
    const m = createAppMetrics();
    const text = await m.registry.metrics();
    const line = text.split('\n').find((l) => l.startsWith('vgwrdma_build_info{'));
    expect(line).toMatch(
      new RegExp(
        `^vgwrdma_build_info\\{version="${VERSION}",node="${process.versions.node}",abi="(\\d+\\.\\d+|none)"\\} 1$`,
      ),
    );
  });

  it('ends counters in _total and never gauges (registry and sources)', async () => {
    const m = createAppMetrics({ perBucket: true });
    m.attach(
      () => IDLE_LIMIT_STATS,
      undefined,
      () => EVENTS,
    );
    for (const metric of await m.registry.getMetricsAsJSON()) {
      if (!metric.name.startsWith('vgwrdma_')) continue;
      if (String(metric.type) === 'counter') expect(metric.name, metric.name).toMatch(/_total$/);
      if (String(metric.type) === 'gauge') expect(metric.name, metric.name).not.toMatch(/_total$/);
    }
    // Every declaration, the RDMA ones (not attached above) included.
    for (const file of readdirSync(SRC).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(SRC, file), 'utf8');
      for (const [, kind, name] of text.matchAll(/new (Gauge|Counter)\(\{\s*name: '([a-z0-9_]+)'/g)) {
        if (kind === 'Gauge') expect(name, `${file}: ${name}`).not.toMatch(/_total$/);
        else expect(name, `${file}: ${name}`).toMatch(/_total$/);
      }
    }
  });

  it('counts per bucket only with --metrics-per-bucket', async () => {
    const off = createAppMetrics();
    off.observer(observation('alpha', 10));
    expect(await off.registry.metrics()).not.toContain('vgwrdma_bucket_');
    const on = createAppMetrics({ perBucket: true });
    on.observer(observation('alpha', 10));
    on.observer(observation('alpha', 5));
    on.observer(observation('', 0)); // no bucket: not counted
    const text = await on.registry.metrics();
    expect(text).toContain('vgwrdma_bucket_requests_total{bucket="alpha"} 2');
    expect(text).toContain('vgwrdma_bucket_received_bytes_total{bucket="alpha"} 15');
    expect(text).not.toContain('bucket=""');
  });
});

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    templating: { list: { name: string; query?: unknown }[] };
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  const exprs = dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })),
  );

  it('has job and instance variables', () => {
    const names = dashboard.templating.list.map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['datasource', 'job', 'instance']));
  });

  it('selects every series by $job and $instance and rates over $__rate_interval', () => {
    expect(exprs.length).toBeGreaterThan(10);
    for (const { title, expr } of exprs) {
      for (const [selector] of expr.matchAll(/\b(?:vgwrdma|process|nodejs)_[a-z0-9_]+(\{[^}]*\})?/g)) {
        expect(selector, title).toContain('job=~"$job"');
        expect(selector, title).toContain('instance=~"$instance"');
      }
      expect(expr, title).not.toMatch(/\[\d+[smh]\]/);
      if (expr.includes('rate(')) expect(expr, title).toContain('[$__rate_interval]');
    }
  });
});
