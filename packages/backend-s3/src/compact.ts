// compact(): drops keys whose value is undefined, so objects built from SDK outputs (where every
// field may be undefined) satisfy this project's exactOptionalPropertyTypes types.

type Required_<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] };
type Optional_<T> = { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };

export function compact<T extends Record<string, unknown>>(o: T): Required_<T> & Optional_<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as Required_<T> & Optional_<T>;
}
