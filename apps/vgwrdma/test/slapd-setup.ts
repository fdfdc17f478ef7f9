// One OpenLDAP slapd for the whole vitest run (the LDAP IAM tests share it; each puts its
// accounts under its own ou). Nothing is started when slapd is not installed: those tests skip,
// naming what is missing.
import { setupSharedSlapd } from '@vgwrdma/test-kit';

export default function setup(): Promise<() => Promise<void>> {
  return setupSharedSlapd();
}
