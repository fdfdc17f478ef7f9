// The paging elements of a page of parts, written the same way in ListParts and in
// GetObjectAttributes' <ObjectParts>: where the page starts, where the next one starts, its size
// and whether more follow.
import { el } from './document.js';

export interface PartPage {
  readonly partNumberMarker: number;
  readonly nextPartNumberMarker?: number | undefined;
  readonly maxParts: number;
  readonly isTruncated: boolean;
}

/** `<PartNumberMarker>`, `<NextPartNumberMarker>` (when there is one), `<MaxParts>`, `<IsTruncated>`. */
export function partPageElements(page: PartPage): string {
  return (
    el('PartNumberMarker', page.partNumberMarker) +
    el('NextPartNumberMarker', page.nextPartNumberMarker) +
    el('MaxParts', page.maxParts) +
    el('IsTruncated', page.isTruncated)
  );
}
