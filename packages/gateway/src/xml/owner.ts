// <Owner>/<Initiator> elements.
import type { Owner } from '@vgwrdma/backend-contract';
import { el, group } from './document.js';

export function ownerElement(name: 'Owner' | 'Initiator', owner: Owner | undefined): string {
  if (!owner) return '';
  return group(name, el('ID', owner.id) + el('DisplayName', owner.displayName ?? owner.id));
}
