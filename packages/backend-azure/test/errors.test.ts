// The backend's errors are catalogue members (docs/errors.md): a caller branches on `code`.
import { isVgwrdmaError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { AzureUnreachableError } from '../src/azure-backend.js';
import { serviceUrl } from '../src/options.js';

describe('backend-azure errors', () => {
  it('AzureUnreachableError is VGW_ERR_AZURE_UNREACHABLE and keeps its name, url and cause', () => {
    const cause = new Error('ECONNREFUSED');
    const e = new AzureUnreachableError('http://127.0.0.1:1/acct', { cause });
    expect(isVgwrdmaError(e, 'VGW_ERR_AZURE_UNREACHABLE')).toBe(true);
    expect([e.name, e.url, e.cause, e instanceof AzureUnreachableError]).toEqual([
      'AzureUnreachableError',
      'http://127.0.0.1:1/acct',
      cause,
      true,
    ]);
  });

  it('options naming no service are VGW_ERR_INVALID_ARGUMENT; a URL or an account is accepted', () => {
    expect(() => serviceUrl({})).toThrow(expect.objectContaining({ code: 'VGW_ERR_INVALID_ARGUMENT' }));
    expect(serviceUrl({ account: 'acct' })).toBe('https://acct.blob.core.windows.net');
    expect(serviceUrl({ url: 'http://127.0.0.1:10000/dev/' })).toBe('http://127.0.0.1:10000/dev');
  });
});
