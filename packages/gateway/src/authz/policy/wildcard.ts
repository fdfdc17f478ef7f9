// IAM-style wildcard matching: '*' is any run of characters (including none), '?' exactly one.
// Compiled patterns are cached because the same few patterns are matched on every request.

const cache = new Map<string, RegExp>();
const MAX_CACHED = 1024;

function compile(pattern: string, ignoreCase: boolean): RegExp {
  const source = pattern
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's');
}

export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  if (!pattern.includes('*') && !pattern.includes('?'))
    return ignoreCase ? pattern.toLowerCase() === value.toLowerCase() : pattern === value;
  const id = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let re = cache.get(id);
  if (!re) {
    if (cache.size >= MAX_CACHED) cache.clear();
    re = compile(pattern, ignoreCase);
    cache.set(id, re);
  }
  return re.test(value);
}
