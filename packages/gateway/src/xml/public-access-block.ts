// PublicAccessBlockConfiguration documents: the request body of PutPublicAccessBlock and the
// reply of GetPublicAccessBlock. Each setting is optional and false when left out.
import { type PublicAccessBlock, S3Error } from '@vgwrdma/backend-contract';
import { el, xmlDocument } from './document.js';
import { childText, parseXmlRoot } from './parse.js';

const ROOT = 'PublicAccessBlockConfiguration';
const FIELDS = ['BlockPublicAcls', 'IgnorePublicAcls', 'BlockPublicPolicy', 'RestrictPublicBuckets'] as const;

export function parsePublicAccessBlock(xml: string): PublicAccessBlock {
  const root = parseXmlRoot(xml, ROOT);
  const out = {} as PublicAccessBlock;
  for (const f of FIELDS) {
    const v = childText(root, f)?.trim().toLowerCase();
    if (v !== undefined && v !== 'true' && v !== 'false') throw new S3Error('MalformedXML');
    out[f] = v === 'true';
  }
  return out;
}

export function renderPublicAccessBlock(block: PublicAccessBlock): string {
  return xmlDocument(ROOT, FIELDS.map((f) => el(f, block[f])).join(''));
}
