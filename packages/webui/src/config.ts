// What the console listener tells the page (GET api/config.json): where the gateway's S3 and
// admin APIs are, the region to sign for, whether RDMA is on. A null host means the page's own.

import { NetworkError } from './errors.js';

export interface Endpoint {
  readonly scheme: 'http' | 'https';
  readonly host: string | null;
  readonly port: number;
}

export interface ConsoleConfig {
  readonly version: string;
  readonly region: string;
  readonly s3: Endpoint;
  readonly admin: Endpoint;
  readonly rdma: boolean;
}

let loaded: ConsoleConfig | undefined;

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch('api/config.json', { cache: 'no-store' });
  if (!res.ok) throw new NetworkError(`the console listener answered ${res.status} for its configuration`);
  return useConfig((await res.json()) as ConsoleConfig);
}

/** Sets the configuration (loadConfig's answer; tests give their own). */
export function useConfig(c: ConsoleConfig): ConsoleConfig {
  loaded = c;
  return c;
}

export function config(): ConsoleConfig {
  if (loaded === undefined) throw new Error('configuration not loaded');
  return loaded;
}

/** The endpoint's base URL (no trailing slash). */
export function baseUrl(e: Endpoint): string {
  const host = e.host === null ? location.hostname : e.host.includes(':') ? `[${e.host}]` : e.host;
  return `${e.scheme}://${host}:${e.port}`;
}
