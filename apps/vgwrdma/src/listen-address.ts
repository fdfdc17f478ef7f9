// Parses versitygw's listen-address syntax: `:PORT` (every interface), `HOST:PORT`, or
// `[IPv6]:PORT`. Port 0 asks the kernel for a free port (tests read the real one from the banner).

export interface ListenAddress {
  /** Interface to bind; `0.0.0.0` when the address named none. */
  readonly host: string;
  readonly port: number;
  /** True when no host was given (listen on every interface). */
  readonly wildcard: boolean;
}

/** Returns the parsed address, or a message saying what is wrong with it. */
export function parseListenAddress(value: string): ListenAddress | string {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]*)):(\d{1,5})$/.exec(value.trim());
  if (!match) return `"${value}" is not <ip>:<port> or :<port>`;
  const port = Number(match[3]);
  if (port > 65_535) return `port ${port} is out of range (0-65535)`;
  const host = match[1] ?? match[2] ?? '';
  return host === ''
    ? { host: '0.0.0.0', port, wildcard: true }
    : { host, port, wildcard: host === '0.0.0.0' || host === '::' };
}

/** The URL a client on this host can use to reach a server bound to `host:port`. */
export function endpointUrl(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return `${scheme}://127.0.0.1:${port}`;
  return host.includes(':') ? `${scheme}://[${host}]:${port}` : `${scheme}://${host}:${port}`;
}
