// Parses and checks the Credential value `AKID/yyyyMMdd/region/service/aws4_request`, shared by
// the Authorization header and X-Amz-Credential; each form reports problems in its own words.
import type { S3Error } from '@vgwrdma/backend-contract';
import { authErrors } from './messages.js';
import { credentialScope } from './signing.js';

interface CredentialScope {
  accessKey: string;
  /** yyyyMMdd */
  date: string;
  region: string;
  service: string;
  /** `date/region/service/aws4_request`, as it appears in strings to sign. */
  scope: string;
}

type CredentialForm = 'header' | 'query';

const ERRORS: Record<
  CredentialForm,
  {
    malformed: () => S3Error;
    region: (got: string, want: string) => S3Error;
    service: (got: string, want: string) => S3Error;
    terminal: (got: string) => S3Error;
  }
> = {
  header: {
    malformed: authErrors.headerMalformedCredential,
    region: authErrors.headerWrongRegion,
    service: authErrors.headerWrongService,
    terminal: authErrors.headerWrongTerminal,
  },
  query: {
    malformed: authErrors.queryMalformedCredential,
    region: authErrors.queryWrongRegion,
    service: authErrors.queryWrongService,
    terminal: authErrors.queryWrongTerminal,
  },
};

const SCOPE_DATE = /^\d{8}$/;

export function parseCredential(
  value: string,
  form: CredentialForm,
  region: string,
  service: string,
): CredentialScope {
  const errors = ERRORS[form];
  const parts = value.split('/');
  if (parts.length !== 5) throw errors.malformed();
  const [accessKey, date, gotRegion, gotService, terminal] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (accessKey === '' || !SCOPE_DATE.test(date)) throw errors.malformed();
  if (gotRegion !== region) throw errors.region(gotRegion, region);
  if (gotService !== service) throw errors.service(gotService, service);
  if (terminal !== 'aws4_request') throw errors.terminal(terminal);
  return { accessKey, date, region, service, scope: credentialScope(date, region, service) };
}
