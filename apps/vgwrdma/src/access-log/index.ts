// The app's access log: one line per request, JSON (default) or AWS's server access log format
// (--access-log-format s3), with the RDMA leg from the RDMA plugin's observation fields.
import { rdmaObservation } from '@vgwrdma/cu-backend';
import type { RequestObserver } from '@vgwrdma/gateway';
import type { AccessSink } from '../logger.js';
import type { AccessLogFormat } from '../observability-flags.js';
import { accessRecord } from './json-format.js';
import { s3AccessLine } from './s3-format.js';

export interface AccessLog {
  readonly observer: RequestObserver;
}

export function createAccessLog(format: AccessLogFormat, sink: AccessSink): AccessLog {
  return {
    observer: (o) => {
      const rdma = rdmaObservation(o);
      if (format === 's3') sink.line(s3AccessLine(o, rdma));
      else sink.json(accessRecord(o, rdma));
    },
  };
}
