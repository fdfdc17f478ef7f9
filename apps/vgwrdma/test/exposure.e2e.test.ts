// The built gateway warns on stderr, once, when it listens beyond loopback while the root secret is
// a published one (the `npm start` default, AWS's documentation example) or shorter than 16
// characters; on loopback, or with a strong secret, it says nothing.
import { networkInterfaces } from 'node:os';
import { killAllChildren, removeDir, startGateway } from '@vgwrdma/test-kit';
import { afterAll, describe, expect, it } from 'vitest';

const STRONG = 'k3J9-qTz8vW2-xR5mN7pL4sD6';
/** IPv6 cases need an IPv6 loopback (some containers have IPv6 off). */
const hasIpv6 = Object.values(networkInterfaces()).some((list) => list?.some((a) => a.address === '::1'));
const WARNING = /WARNING: listening on \S+, beyond this host, with (.+?): anyone who can reach/;

afterAll(() => {
  killAllChildren();
});

interface Case {
  readonly name: string;
  readonly port: string;
  readonly secret: string;
  /** The weakness the warning names, or undefined for no warning. */
  readonly warns?: RegExp;
}

const CASES: readonly Case[] = [
  {
    name: 'all interfaces, npm start default secret',
    port: '0.0.0.0:0',
    secret: 'vgwrdma-secret',
    warns: /published default secret/,
  },
  {
    name: 'all interfaces (IPv6), AWS example secret',
    port: '[::]:0',
    secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    warns: /published default secret/,
  },
  {
    name: 'all interfaces, 15-character secret',
    port: '0.0.0.0:0',
    secret: 'fifteen-chars!!',
    warns: /shorter than 16 characters/,
  },
  { name: 'all interfaces, strong secret', port: '0.0.0.0:0', secret: STRONG },
  { name: 'loopback, npm start default secret', port: '127.0.0.1:0', secret: 'vgwrdma-secret' },
  { name: 'loopback (IPv6), short secret', port: '[::1]:0', secret: 'short' },
];

describe('exposure warning', () => {
  for (const c of CASES) {
    it.skipIf(c.port.startsWith('[') && !hasIpv6)(
      `${c.name}: ${c.warns ? 'warns' : 'says nothing'}`,
      async () => {
        const gw = await startGateway({ globalArgs: ['--port', c.port, '--secret', c.secret] });
        expect(await gw.stop()).toEqual({ code: 0, signal: null });
        await removeDir(gw.root);
        const warnings = gw.stderr().match(new RegExp(WARNING, 'g')) ?? [];
        if (c.warns === undefined) {
          expect(warnings).toEqual([]);
          return;
        }
        expect(warnings).toHaveLength(1);
        expect(WARNING.exec(gw.stderr())?.[1]).toMatch(c.warns);
        // It names what to change.
        expect(gw.stderr()).toMatch(/--secret or ROOT_SECRET_ACCESS_KEY/);
        expect(gw.stderr()).toMatch(/--port 127\.0\.0\.1:PORT or VGW_PORT/);
      },
    );
  }
});
