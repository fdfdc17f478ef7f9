// Bucket event notifications as Prometheus metrics, read from the notifier's delivery counters at
// scrape time: every delivery outcome (delivered, retried, dropped when the queue was full, failed
// after the last attempt) as one counter with an `outcome` label, and the messages waiting now.
import type { DeliveryStats } from '@vgwrdma/gateway';
import { Counter, Gauge, type Registry } from 'prom-client';

const OUTCOMES = ['delivered', 'retried', 'dropped', 'failed'] as const;

export function eventMetrics(registry: Registry, stats: () => DeliveryStats): void {
  new Counter({
    name: 'vgwrdma_event_deliveries_total',
    help: 'Event notification delivery outcomes: delivered, retried (a failed send tried again), dropped (queue full), failed (given up)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const now = stats();
      this.reset();
      for (const outcome of OUTCOMES) this.inc({ outcome }, now[outcome]);
    },
  });
  new Gauge({
    name: 'vgwrdma_event_queue_depth',
    help: 'Event notifications not yet delivered now: waiting, or being sent (retries included)',
    registers: [registry],
    collect() {
      const now = stats();
      this.set(now.queued + now.sending);
    },
  });
}
