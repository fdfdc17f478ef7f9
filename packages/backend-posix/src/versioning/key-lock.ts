// Serialises the version bookkeeping of one key within this process: archiving the latest and
// publishing its successor are two steps, and two writers interleaving them would both archive
// the same old latest and let one new version replace the other unarchived. Held only around
// those steps (not while bodies stream), keyed by bucket and key.
const tails = new Map<string, Promise<void>>();

export async function withKeyLock<T>(bucket: string, key: string, fn: () => Promise<T>): Promise<T> {
  const id = `${bucket}\0${key}`;
  const before = tails.get(id) ?? Promise.resolve();
  let release: () => void = () => {};
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = before.then(() => mine);
  tails.set(id, tail);
  await before;
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(id) === tail) tails.delete(id);
  }
}
