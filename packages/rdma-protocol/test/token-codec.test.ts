import { InvalidArgumentError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { gidToIpv4, ipv4MappedGid, softnicEndpoint } from '../src/gid.js';
import {
  classifyRdmaToken,
  DC_TOKEN_LENGTH,
  formatRdmaToken,
  parseRdmaToken,
  tryParseRdmaToken,
} from '../src/token-codec.js';
import { type DcTokenFields, RdmaTokenError } from '../src/token-types.js';

// The real sample from docs/protocol.md.
const SAMPLE = '000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf';

function fields(over: Partial<DcTokenFields> = {}): DcTokenFields {
  return {
    addr: 0x7f00_1234_5000n,
    size: 4096,
    rkey: 0xdead_beef,
    lid: 0,
    dctn: 40_000,
    gidPresent: true,
    gid: ipv4MappedGid('127.0.0.1'),
    ...over,
  };
}

/** Replaces the character at index i. */
const setChar = (s: string, i: number, c: string) => s.slice(0, i) + c + s.slice(i + 1);

describe('parseRdmaToken', () => {
  it('parses the docs/protocol.md sample field by field', () => {
    expect(SAMPLE).toHaveLength(DC_TOKEN_LENGTH);
    const t = parseRdmaToken(SAMPLE);
    expect(t.addr).toBe(0x0000_7396_7e5f_f000n);
    expect(t.size).toBe(0x0040_0000);
    expect(t.rkey).toBe(0x01f2_e973);
    expect(t.lid).toBe(0);
    expect(t.dctn).toBe(0x7a03);
    expect(t.gidPresent).toBe(true);
    expect(gidToIpv4(t.gid)).toBe('15.15.15.223');
    expect(t.remoteAddr).toBe(t.addr);
    expect(t.length).toBe(4 * 1024 * 1024);
    expect(t.overrideAddr).toBe(0n);
    expect(t.overrideSize).toBe(0n);
    expect(t.base).toBe(SAMPLE);
  });

  it('keeps full 64-bit addresses exact (BigInt, not float)', () => {
    const t = parseRdmaToken(formatRdmaToken(fields({ addr: 0xffff_ffff_ffff_fff1n })));
    expect(t.addr).toBe(0xffff_ffff_ffff_fff1n);
  });

  it('applies the suffixed override, with and without the trailing semicolon', () => {
    const over = `${SAMPLE}:00007f0000001000:0000000000002000`;
    for (const s of [over, `${over};`]) {
      const t = parseRdmaToken(s);
      expect(t.remoteAddr).toBe(0x7f00_0000_1000n);
      expect(t.length).toBe(0x2000);
      expect(t.addr).toBe(0x0000_7396_7e5f_f000n);
      expect(t.base).toBe(SAMPLE);
      expect(classifyRdmaToken(s)).toBe('dc-v1-override');
    }
  });

  it('treats a zero suffix field as "no override", each field on its own', () => {
    const addrOnly = parseRdmaToken(`${SAMPLE}:00007f0000001000:0000000000000000`);
    expect(addrOnly.remoteAddr).toBe(0x7f00_0000_1000n);
    expect(addrOnly.length).toBe(0x40_0000);
    const sizeOnly = parseRdmaToken(`${SAMPLE}:0000000000000000:0000000000000010`);
    expect(sizeOnly.remoteAddr).toBe(sizeOnly.addr);
    expect(sizeOnly.length).toBe(16);
  });

  it('lets the override size exceed the u32 size field', () => {
    const t = parseRdmaToken(`${SAMPLE}:0000000000000000:0000000100000000`);
    expect(t.length).toBe(2 ** 32);
  });

  it('rejects size 0, even when an override size is given (as the C codec does)', () => {
    const zero = SAMPLE.replace(':00400000:', ':00000000:');
    expect(tryParseRdmaToken(zero)).toMatchObject({ ok: false, kind: 'malformed' });
    for (const suffix of [':0000000000000000:0000000000000000', ':0000000000000000:0000000000000005']) {
      expect(tryParseRdmaToken(zero + suffix)).toMatchObject({ ok: false, kind: 'malformed' });
    }
    expect(() => formatRdmaToken(fields({ size: 0 }))).toThrow(RdmaTokenError);
  });

  it('classifies RC/hipObject tokens as unsupported, not malformed', () => {
    const rc = [
      'rc:0000000000001000:00001000:abcd',
      'rc:',
      `0000000000000000${SAMPLE}`, // first field longer than 16 hex digits
      '00000000000000001:00001000',
    ];
    for (const s of rc) {
      expect(classifyRdmaToken(s), s).toBe('rc');
      const err = (() => {
        try {
          parseRdmaToken(s);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(RdmaTokenError);
      expect([(err as RdmaTokenError).code, (err as RdmaTokenError).kind]).toEqual([
        'VGW_ERR_RDMA_TOKEN_UNSUPPORTED',
        'unsupported',
      ]);
    }
  });

  it('rejects every single-character corruption of the sample (width, hex, separators, case)', () => {
    const colons = new Set([16, 25, 34, 39, 46, 48]);
    for (let i = 0; i < SAMPLE.length; i++) {
      // (a hex digit in place of the first colon makes field 1 longer than 16 hex: that is the
      // RC shape by definition, checked in the test above, so only ';' is tried there)
      const bad = colons.has(i) ? [setChar(SAMPLE, i, ';')] : [setChar(SAMPLE, i, 'g')];
      if (colons.has(i) && i !== 16) bad.push(setChar(SAMPLE, i, '0'));
      if (!colons.has(i) && /[a-f]/.test(SAMPLE[i]!)) bad.push(setChar(SAMPLE, i, SAMPLE[i]!.toUpperCase()));
      if (!colons.has(i) && /[0-9a-f]/.test(SAMPLE[i]!)) bad.push(setChar(SAMPLE, i, ':'));
      for (const s of bad) expect(classifyRdmaToken(s), `${i}: ${s}`).toBe('malformed');
    }
  });

  it('detects the rc: prefix in any case (RC:, Rc:, as the original vgwrdma client), as the C codec', () => {
    for (const s of ['RC:0000', 'Rc:0000', 'rC:']) expect(classifyRdmaToken(s), s).toBe('rc');
    expect(classifyRdmaToken('R:0000')).toBe('malformed');
    expect(classifyRdmaToken(`ABCDEF0123456789A${SAMPLE.slice(16)}`)).toBe('malformed'); // uppercase run
  });

  it('rejects wrong lengths, whitespace, wrong field widths and a GID flag other than 0/1', () => {
    const cases = [
      '',
      SAMPLE.slice(0, -1),
      `${SAMPLE}0`,
      ` ${SAMPLE}`,
      `${SAMPLE} `,
      `${SAMPLE};`, // ';' only after an override suffix
      '00073967e5ff000:000400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf', // 15/9
      '000073967e5ff000:00400000:01f2e973:00000:07a03:1:00000000000000000000ffff0f0f0fdf', // 5/5
      setChar(SAMPLE, 47, '2'),
      `${SAMPLE}:00007f0000001000:000000000000200`, // short suffix
      `${SAMPLE}:00007f0000001000:00000000000020000`, // long suffix
      `${SAMPLE}:00007f0000001000;0000000000002000`,
      `${SAMPLE}:00007f0000001000:0000000000002000;;`,
      `${SAMPLE}:00007F0000001000:0000000000002000`,
      `${SAMPLE}:0000000000000000:0020000000000000`, // beyond Number.MAX_SAFE_INTEGER
    ];
    for (const s of cases)
      expect(tryParseRdmaToken(s), JSON.stringify(s)).toMatchObject({ ok: false, kind: 'malformed' });
  });
});

describe('formatRdmaToken', () => {
  it('round-trips the sample', () => {
    expect(formatRdmaToken(parseRdmaToken(SAMPLE))).toBe(SAMPLE);
  });

  it('round-trips random fields exactly', () => {
    let seed = 12345;
    const rnd = (bits: number) => {
      let v = 0n;
      for (let b = 0; b < bits; b += 16) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        v = (v << 16n) | BigInt(seed >>> 16);
      }
      return v & ((1n << BigInt(bits)) - 1n);
    };
    for (let i = 0; i < 500; i++) {
      const f = fields({
        addr: rnd(64),
        size: Number(rnd(32)) || 1,
        rkey: Number(rnd(32)),
        lid: Number(rnd(16)),
        dctn: Number(rnd(24)),
        gidPresent: (i & 1) === 1,
        gid: Uint8Array.from({ length: 16 }, () => Number(rnd(8))),
      });
      const s = formatRdmaToken(f);
      expect(s).toMatch(/^[0-9a-f]{16}:[0-9a-f]{8}:[0-9a-f]{8}:[0-9a-f]{4}:[0-9a-f]{6}:[01]:[0-9a-f]{32}$/);
      const t = parseRdmaToken(s);
      expect({ ...t, gid: [...t.gid] }).toMatchObject({ ...f, gid: [...f.gid] });
    }
  });

  it('formats the override suffix and the optional semicolon', () => {
    const s = formatRdmaToken(fields(), { override: { addr: 0x1000n, size: 0x20n }, semicolon: true });
    expect(s.slice(DC_TOKEN_LENGTH)).toBe(':0000000000001000:0000000000000020;');
    expect(parseRdmaToken(s)).toMatchObject({ remoteAddr: 0x1000n, length: 0x20 });
  });

  it('refuses out-of-range fields instead of truncating them', () => {
    const bad: Partial<DcTokenFields>[] = [
      { addr: 1n << 64n },
      { addr: -1n },
      { size: 2 ** 32 },
      { rkey: -1 },
      { lid: 0x1_0000 },
      { dctn: 0x100_0000 },
      { gid: new Uint8Array(15) },
    ];
    for (const b of bad)
      expect(() => formatRdmaToken(fields(b))).toThrow(
        expect.objectContaining({ name: 'RdmaTokenError', code: 'VGW_ERR_RDMA_TOKEN_MALFORMED' }),
      );
  });
});

describe('softnic GID helpers', () => {
  it('maps IPv4 to a GID and back, and names the agent endpoint', () => {
    const gid = ipv4MappedGid('10.1.2.254');
    expect(Buffer.from(gid).toString('hex')).toBe('00000000000000000000ffff0a0102fe');
    expect(gidToIpv4(gid)).toBe('10.1.2.254');
    expect(softnicEndpoint(fields({ gid, dctn: 5555 }))).toEqual({ host: '10.1.2.254', port: 5555 });
    expect(softnicEndpoint(fields({ gidPresent: false }))).toBeUndefined();
    expect(gidToIpv4(new Uint8Array(16).fill(1))).toBeUndefined();
  });

  it('rejects non-IPv4 strings', () => {
    for (const s of ['1.2.3', '1.2.3.256', '::1', 'a.b.c.d', '1.2.3.4.5', '01.2.3.4444']) {
      expect(() => ipv4MappedGid(s)).toThrow(InvalidArgumentError);
    }
  });
});
