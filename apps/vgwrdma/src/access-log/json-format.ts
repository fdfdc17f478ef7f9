// The JSON access-log record: every field of the request's observation an operator filters on,
// with stable names, and the RDMA leg (via, bytes moved, decline reason) for RDMA requests. pino
// wraps it in its usual line (level, time, pid, hostname, name, msg 'request'); `time` is pino's —
// epoch ms when the line was written, as on every other line — and the request's arrival is
// `startTime` (ISO 8601), so no key appears twice. Values are JSON-escaped by pino; the URL carries
// no signature (the gateway's observation redacts it).
import type { RdmaObservation } from '@vgwrdma/cu-backend';
import type { RequestObservation } from '@vgwrdma/gateway';

/** The observation's fields an operator filters on, under the observation's own names. */
type ObservedField =
  | 'requestId'
  | 'remoteAddress'
  | 'method'
  | 'url'
  | 'operation'
  | 'bucket'
  | 'key'
  | 'status'
  | 'errorCode'
  | 'bytesSent'
  | 'bytesReceived'
  | 'objectSize'
  | 'userAgent'
  | 'accessKey'
  | 'signatureVersion'
  | 'authType'
  | 'tlsVersion'
  | 'tlsCipher'
  | 'totalMs'
  | 'firstByteMs'
  | 'completed'
  | 'cut';

export interface AccessRecord extends Pick<RequestObservation, ObservedField> {
  /** startedAt as an ISO 8601 time (pino's own `time` is when the line was written). */
  readonly startTime: string;
  /** 'rdma' when the payload moved by RDMA, 'http' otherwise. */
  readonly via: 'http' | 'rdma';
  readonly rdmaBytes?: number;
  readonly declineReason?: string;
}

const ms = (v: number): number => Math.round(v * 1000) / 1000;

export function accessRecord(o: RequestObservation, rdma: RdmaObservation | undefined): AccessRecord {
  return {
    requestId: o.requestId,
    startTime: new Date(o.startedAt).toISOString(),
    remoteAddress: o.remoteAddress,
    method: o.method,
    url: o.url,
    operation: o.operation,
    bucket: o.bucket,
    key: o.key,
    status: o.status,
    errorCode: o.errorCode,
    bytesSent: o.bytesSent,
    bytesReceived: o.bytesReceived,
    objectSize: o.objectSize,
    userAgent: o.userAgent,
    accessKey: o.accessKey,
    signatureVersion: o.signatureVersion,
    authType: o.authType,
    tlsVersion: o.tlsVersion,
    tlsCipher: o.tlsCipher,
    totalMs: ms(o.totalMs),
    firstByteMs: o.firstByteMs === undefined ? undefined : ms(o.firstByteMs),
    completed: o.completed,
    ...(o.cut === undefined ? {} : { cut: o.cut }),
    via: rdma?.via ?? 'http',
    ...(rdma ? { rdmaBytes: rdma.bytes } : {}),
    ...(rdma?.declineReason === undefined ? {} : { declineReason: rdma.declineReason }),
  };
}
