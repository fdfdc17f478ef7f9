// A client network namespace joined to this one by a veth pair, for link faults: the gateway
// stays in the root namespace on `hostIp`, a client runs inside the namespace on `clientIp`, and
// the test can throttle the link, set it down and up again. Needs root and iproute2 (`ip`,
// `tc`); `netnsSkipReason` says why not, so a test can skip with that reason printed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

export function netnsSkipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
    execFileSync('tc', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'iproute2 (ip, tc) is not installed';
  }
  return undefined;
}

export interface ClientLink {
  readonly ns: string;
  readonly hostIp: string;
  readonly clientIp: string;
  readonly hostIf: string;
  /** Limits both directions to `rate` (tc tbf syntax, e.g. '80mbit'). */
  throttle(rate: string): void;
  unthrottle(): void;
  down(): void;
  up(): void;
  /** Bytes the host side received / sent (client → gateway / gateway → client). */
  rxBytes(): number;
  txBytes(): number;
  destroy(): void;
}

export function createClientLink(): ClientLink {
  const tag = process.pid % 100_000;
  const ns = `vgwf_${tag}`;
  const hostIf = `vgfh${tag}`;
  const clientIf = `vgfc${tag}`;
  const subnet = `10.215.${(tag % 250) + 1}`;
  const [hostIp, clientIp] = [`${subnet}.1`, `${subnet}.2`];
  const destroy = () => {
    try {
      ip('netns', 'del', ns); // takes its veth end, and so the pair, with it
    } catch {
      // already gone
    }
  };
  destroy();
  try {
    ip('netns', 'add', ns);
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', clientIf, 'netns', ns);
    ip('addr', 'add', `${hostIp}/24`, 'dev', hostIf);
    ip('-n', ns, 'addr', 'add', `${clientIp}/24`, 'dev', clientIf);
    ip('link', 'set', hostIf, 'up');
    ip('-n', ns, 'link', 'set', clientIf, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
  } catch (e) {
    destroy();
    throw e;
  }
  const stat = (name: string) => Number(readFileSync(`/sys/class/net/${hostIf}/statistics/${name}`, 'utf8'));
  const tbf = (rate: string) => ['root', 'tbf', 'rate', rate, 'burst', '64kb', 'latency', '100ms'];
  process.once('exit', destroy);
  return {
    ns,
    hostIp,
    clientIp,
    hostIf,
    throttle: (rate) => {
      execFileSync('tc', ['qdisc', 'replace', 'dev', hostIf, ...tbf(rate)]);
      execFileSync('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'replace', 'dev', clientIf, ...tbf(rate)]);
    },
    unthrottle: () => {
      execFileSync('tc', ['qdisc', 'del', 'dev', hostIf, 'root']);
      execFileSync('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'del', 'dev', clientIf, 'root']);
    },
    down: () => ip('link', 'set', hostIf, 'down'),
    up: () => {
      ip('link', 'set', hostIf, 'up');
      ip('-n', ns, 'link', 'set', clientIf, 'up');
    },
    rxBytes: () => stat('rx_bytes'),
    txBytes: () => stat('tx_bytes'),
    destroy,
  };
}
