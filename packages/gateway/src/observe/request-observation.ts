// RequestObservation: what the gateway knows about one request once its response is finished or
// its connection is gone — the metrics hook and the access log read this, and nothing else. The
// operation is the route table's S3 operation name, `admin:<name>` for admin calls, Health/Ready for
// the probes ('Unknown' when the request failed before a route matched: bad method, bad bucket
// name, unsupported sub-resource). Nothing here carries a secret: see `url`.
export interface RequestObservation {
  readonly requestId: string;
  /** Epoch ms when the request reached the gateway. */
  readonly startedAt: number;
  readonly remoteAddress: string | undefined;
  readonly method: string;
  /**
   * The raw request target (path and query) as the client sent it, with the values of
   * X-Amz-Signature, Signature and X-Amz-Security-Token replaced by REDACTED (redact-url.ts).
   */
  readonly url: string;
  readonly operation: string;
  /** '' for service requests, admin calls and requests whose bucket name was refused. */
  readonly bucket: string;
  /** '' for service and bucket requests. */
  readonly key: string;
  readonly status: number;
  /** The S3 error code of an error answer (NoSuchKey, SlowDown, …). */
  readonly errorCode: string | undefined;
  /** Response body bytes (the Content-Length of a finished response; what the socket took of a cut one). */
  readonly bytesSent: number;
  /** Request body bytes: the declared Content-Length of a request whose body arrived whole, else 0. */
  readonly bytesReceived: number;
  /** Size of the object a GET/HEAD served or a PUT/UploadPart/POST stored, when known. */
  readonly objectSize: number | undefined;
  readonly userAgent: string | undefined;
  /** The Referer header, redacted as `url` is (a page at a presigned URL sends that URL). */
  readonly referer: string | undefined;
  /** The Host header as sent. */
  readonly host: string | undefined;
  /** The signing access key (undefined before authentication or for anonymous requests). */
  readonly accessKey: string | undefined;
  /** How an authenticated request was signed (undefined: anonymous, refused first, or a POST form). */
  readonly signatureVersion: 'SigV2' | 'SigV4' | undefined;
  readonly authType: 'AuthHeader' | 'QueryString' | undefined;
  /** On a TLS listener: the protocol (TLSv1.3) and OpenSSL's cipher name; undefined on plain HTTP. */
  readonly tlsVersion: string | undefined;
  readonly tlsCipher: string | undefined;
  /** Arrival to the response's end (or the connection's close), ms. */
  readonly totalMs: number;
  /** Arrival to the status line being written, ms; undefined when nothing was written. */
  readonly firstByteMs: number | undefined;
  /** False when the connection closed before the response was complete. */
  readonly completed: boolean;
  /** 'shutdown' when the request was still running at the shutdown deadline and was cut. */
  readonly cut?: 'shutdown';
  /**
   * Each plugin's own fields for this request, by plugin name (GatewayPlugin.observe); only the
   * plugins that took part. The plugin's package exports their type and a typed reader (the RDMA
   * plugin: cu-backend's rdmaObservation()).
   */
  readonly plugins?: Readonly<Record<string, unknown>>;
}

/** Called once per request, after the response ended; must not throw (it is not awaited). */
export type RequestObserver = (observation: RequestObservation) => void;
