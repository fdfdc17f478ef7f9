import { describe, expect, it } from 'vitest';
import {
  parseAccessControlPolicy,
  parseCompleteMultipartUpload,
  parseDelete,
  parseObjectLockConfiguration,
  parseTagging,
  parseVersioningConfiguration,
} from '../../src/xml/requests.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
};

describe('request XML readers', () => {
  it('decodes numeric character references in keys, once', () => {
    const xml =
      '<Delete><Object><Key>a&#x0A;b&#13;c&#x9;</Key></Object><Object><Key>&amp;#10;</Key></Object></Delete>';
    expect(parseDelete(xml).objects.map((o) => o.key)).toEqual(['a\nb\rc\t', '&#10;']);
  });

  it('reads CompleteMultipartUpload parts with checksums, namespaced or not', () => {
    const xml =
      '<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Part><PartNumber>1</PartNumber><ETag>"a"</ETag><ChecksumCRC32>AAAAAA==</ChecksumCRC32></Part><Part><PartNumber>2</PartNumber><ETag>b</ETag></Part></CompleteMultipartUpload>';
    expect(parseCompleteMultipartUpload(xml)).toEqual([
      { partNumber: 1, etag: '"a"', checksums: { CRC32: 'AAAAAA==' } },
      { partNumber: 2, etag: 'b' },
    ]);
    expect(code(() => parseCompleteMultipartUpload('<CompleteMultipartUpload/>'))).toBe('MalformedXML');
    expect(
      code(() =>
        parseCompleteMultipartUpload(
          '<CompleteMultipartUpload><Part><ETag>x</ETag></Part></CompleteMultipartUpload>',
        ),
      ),
    ).toBe('MalformedXML');
  });

  it('reads Delete keys exactly, entities and spaces included', () => {
    const out = parseDelete(
      '<Delete><Quiet>true</Quiet><Object><Key> a&amp;b </Key><VersionId>v</VersionId></Object><Object><Key>c</Key></Object></Delete>',
    );
    expect(out).toEqual({ quiet: true, objects: [{ key: ' a&b ', versionId: 'v' }, { key: 'c' }] });
    expect(code(() => parseDelete('<Delete><Object><Key>a</Object></Delete>'))).toBe('MalformedXML');
  });

  it('validates tag sets', () => {
    expect(
      parseTagging('<Tagging><TagSet><Tag><Key>k</Key><Value>v</Value></Tag></TagSet></Tagging>', 10),
    ).toEqual({ k: 'v' });
    const dup =
      '<Tagging><TagSet><Tag><Key>k</Key><Value>1</Value></Tag><Tag><Key>k</Key><Value>2</Value></Tag></TagSet></Tagging>';
    expect(code(() => parseTagging(dup, 10))).toBe('InvalidTag');
    const eleven = `<Tagging><TagSet>${Array.from({ length: 11 }, (_, i) => `<Tag><Key>k${i}</Key><Value/></Tag>`).join('')}</TagSet></Tagging>`;
    expect(code(() => parseTagging(eleven, 10))).toBe('InvalidTag');
    expect(Object.keys(parseTagging(eleven, 50))).toHaveLength(11);
  });

  it('reads configuration documents', () => {
    expect(
      parseVersioningConfiguration(
        '<VersioningConfiguration><Status>Suspended</Status></VersioningConfiguration>',
      ),
    ).toBe('Suspended');
    expect(
      code(() =>
        parseVersioningConfiguration(
          '<VersioningConfiguration><Status>On</Status></VersioningConfiguration>',
        ),
      ),
    ).toBe('MalformedXML');
    expect(
      parseObjectLockConfiguration(
        '<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>COMPLIANCE</Mode><Years>2</Years></DefaultRetention></Rule></ObjectLockConfiguration>',
      ),
    ).toEqual({ Enabled: true, DefaultRetention: { Mode: 'COMPLIANCE', Years: 2 } });
    const lock = (retention: string) =>
      `<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled><Rule><DefaultRetention><Mode>GOVERNANCE</Mode>${retention}</DefaultRetention></Rule></ObjectLockConfiguration>`;
    // As S3 (and the s3-tests suite): a period that is no positive number is its own error.
    expect(code(() => parseObjectLockConfiguration(lock('<Days>0</Days>')))).toBe('InvalidRetentionPeriod');
    expect(code(() => parseObjectLockConfiguration(lock('<Years>-1</Years>')))).toBe(
      'InvalidRetentionPeriod',
    );
    expect(code(() => parseObjectLockConfiguration(lock('<Days>one</Days>')))).toBe('MalformedXML');
    expect(code(() => parseObjectLockConfiguration(lock('<Days>1</Days><Years>1</Years>')))).toBe(
      'MalformedXML',
    );
    const acl = parseAccessControlPolicy(
      '<AccessControlPolicy><Owner><ID>me</ID></Owner><AccessControlList><Grant><Grantee><URI>http://acs.amazonaws.com/groups/global/AllUsers</URI></Grantee><Permission>READ</Permission></Grant></AccessControlList></AccessControlPolicy>',
    );
    expect(acl).toEqual({
      owner: 'me',
      grants: [{ kind: 'uri', value: 'http://acs.amazonaws.com/groups/global/AllUsers', permission: 'READ' }],
    });
    const byEmail = parseAccessControlPolicy(
      '<AccessControlPolicy><Owner><ID>me</ID></Owner><AccessControlList><Grant><Grantee><EmailAddress>a@b.c</EmailAddress></Grantee><Permission>WRITE</Permission></Grant></AccessControlList></AccessControlPolicy>',
    );
    expect(byEmail.grants).toEqual([{ kind: 'email', value: 'a@b.c', permission: 'WRITE' }]);
    // A grantee with neither ID, URI nor e-mail address, and an unknown group.
    expect(
      code(() =>
        parseAccessControlPolicy(
          '<AccessControlPolicy><Owner><ID>me</ID></Owner><AccessControlList><Grant><Grantee></Grantee><Permission>READ</Permission></Grant></AccessControlList></AccessControlPolicy>',
        ),
      ),
    ).toBe('MalformedACLError');
    expect(
      code(() =>
        parseAccessControlPolicy(
          '<AccessControlPolicy><Owner><ID>me</ID></Owner><AccessControlList><Grant><Grantee><URI>http://x/y</URI></Grantee><Permission>READ</Permission></Grant></AccessControlList></AccessControlPolicy>',
        ),
      ),
    ).toBe('InvalidArgument');
  });
});
