// The `s3` command's flags that put the proxy in front of an upstream store: its endpoint and
// keys, path-style addressing, and the bucket that keeps the proxy's own metadata.

/** What the flags name of an upstream (the backend-s3 tests' UpstreamGateway fits). */
export interface UpstreamKeys {
  readonly endpoint: string;
  readonly access: string;
  readonly secret: string;
}

export function upstreamFlags(up: UpstreamKeys, metaBucket: string): string[] {
  const keys = ['--endpoint', up.endpoint, '--access', up.access, '--secret', up.secret];
  return [...keys, '--use-path-style', '--meta-bucket', metaBucket];
}
