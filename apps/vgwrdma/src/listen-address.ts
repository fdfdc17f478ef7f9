// Parses versitygw's listen-address syntax: `:PORT` (every interface), `HOST:PORT`, or
// `[IPv6]:PORT`; or a unix socket: `/path/to/socket` (versitygw's form), `unix:/path`, or
// `@name` (Linux's abstract namespace). Port 0 asks the kernel for a free port (tests read the
// real one from the banner).
import { z } from 'zod';

export interface ListenAddress {
  /** Interface to bind; `0.0.0.0` when the address named none; '' for a unix socket. */
  readonly host: string;
  readonly port: number;
  /** True when no host was given (listen on every interface). */
  readonly wildcard: boolean;
  /** A unix socket instead of TCP: an absolute path, or `@name` (abstract). */
  readonly socketPath?: string;
}

/** Returns the parsed address, or a message saying what is wrong with it. */
export function parseListenAddress(value: string): ListenAddress | string {
  const trimmed = value.trim();
  const socket = trimmed.startsWith('unix:') ? trimmed.slice('unix:'.length) : trimmed;
  if (socket.startsWith('/') || socket.startsWith('@')) {
    if (socket.length < 2) return `"${value}" names no socket`;
    return { host: '', port: 0, wildcard: false, socketPath: socket };
  }
  if (trimmed.startsWith('unix:')) return `"${value}": a unix socket path must be absolute (unix:/path)`;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]*)):(\d{1,5})$/.exec(trimmed);
  if (!match) return `"${value}" is not <ip>:<port>, :<port> or a unix socket (/path, unix:/path, @name)`;
  const port = Number(match[3]);
  if (port > 65_535) return `port ${port} is out of range (0-65535)`;
  const host = match[1] ?? match[2] ?? '';
  return host === ''
    ? { host: '0.0.0.0', port, wildcard: true }
    : { host, port, wildcard: host === '0.0.0.0' || host === '::' };
}

/** parseListenAddress as a zod schema (the flag tables). */
export const listenAddress = z.string().transform((value, ctx) => {
  const parsed = parseListenAddress(value);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

/** The URL a client on this host can use to reach a server bound to `host:port`. */
export function endpointUrl(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return `${scheme}://127.0.0.1:${port}`;
  return host.includes(':') ? `${scheme}://[${host}]:${port}` : `${scheme}://${host}:${port}`;
}

/** How the banner names where a listener is: its URL, or `unix:<path>` for a socket. */
export function listenerEndpoint(address: ListenAddress, host: string, port: number, tls: boolean): string {
  if (address.socketPath !== undefined) return `unix:${address.socketPath}`;
  return endpointUrl(host, port, tls ? 'https' : 'http');
}
