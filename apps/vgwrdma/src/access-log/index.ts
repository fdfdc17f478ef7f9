// The app's access log: one line per request, JSON (default) or AWS's server access log format
// (--access-log-format s3), with the RDMA leg joined from the plugin's transfer events.
import type { RdmaPlugin } from '@vgwrdma/cu-backend';
import type { RequestObserver } from '@vgwrdma/gateway';
import type { AccessSink } from '../logger.js';
import type { AccessLogFormat } from '../observability-flags.js';
import { accessRecord } from './json-format.js';
import { RdmaOutcomes } from './rdma-outcomes.js';
import { s3AccessLine } from './s3-format.js';

export interface AccessLog {
  readonly observer: RequestObserver;
  /** With RDMA: joins the plugin's transfers to their requests. */
  attach(rdma: RdmaPlugin): void;
}

export function createAccessLog(format: AccessLogFormat, sink: AccessSink): AccessLog {
  const outcomes = new RdmaOutcomes();
  return {
    observer: (o) => {
      const transfer = o.rdma ? outcomes.take(o.requestId) : undefined;
      if (format === 's3') sink.line(s3AccessLine(o, transfer));
      else sink.json(accessRecord(o, transfer));
    },
    attach: (rdma) => void outcomes.listen(rdma),
  };
}
