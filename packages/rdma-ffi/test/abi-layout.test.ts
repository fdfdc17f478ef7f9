// koffi's struct layouts against the C compiler's (vgw_shim_layout_sizeof/offsetof), and the
// library's ABI version against the one this package was written for.

import { EXPECTED_ABI, koffi } from '@vgwrdma/native';
import { describe, expect, it } from 'vitest';
import { ABI_STRUCTS } from '../src/native/layouts.js';
import { loadShimLibrary } from '../src/native/shim-library.js';
import { shimInfo } from '../src/shim-info.js';

const SIZE_MAX = 2n ** 64n - 1n;

describe('ABI', () => {
  const lib = loadShimLibrary();

  it('reports a compatible ABI version and the softnic provider', () => {
    expect(lib.abiVersion >>> 16).toBe(EXPECTED_ABI.major);
    expect(lib.abiVersion & 0xffff).toBeGreaterThanOrEqual(EXPECTED_ABI.minor);
    const info = shimInfo();
    expect(info.providers).toContain('softnic');
    expect(info.path).toMatch(/libvgwrdma_shims\.so$/);
  });

  for (const [name, type] of Object.entries(ABI_STRUCTS)) {
    it(`${name}: size and every field offset match the C header`, () => {
      expect(BigInt(lib.fn.vgw_shim_layout_sizeof(name))).toBe(BigInt(koffi.sizeof(type)));
      const members = Object.keys(koffi.type(type).members ?? {});
      expect(members.length).toBeGreaterThan(1);
      for (const field of members) {
        expect(BigInt(lib.fn.vgw_shim_layout_offsetof(name, field)), `${name}.${field}`).toBe(
          BigInt(koffi.offsetof(type, field)),
        );
      }
    });
  }

  it('the layout query answers SIZE_MAX for unknown names (so the checks above can fail)', () => {
    expect(BigInt(lib.fn.vgw_shim_layout_sizeof('no_such_t'))).toBe(SIZE_MAX);
    expect(BigInt(lib.fn.vgw_shim_layout_offsetof('cuobj_token_t', 'no_such_field'))).toBe(SIZE_MAX);
  });
});
