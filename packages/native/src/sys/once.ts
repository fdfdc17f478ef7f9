// A libc declaration made once per process and shared: koffi registers a struct's name globally,
// so declaring the same prototype twice would fail the second time. `optional` declarations answer
// undefined where this libc lacks the call (glibc before 2.28 has no statx); the others throw then,
// as a missing libc call is an installation the caller cannot work on.
export function declareOnce<T>(declare: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: declare() };
    return made.value;
  };
}

/** As declareOnce, but undefined (remembered) when the declaration fails. */
export function declareOptional<T>(declare: () => T): () => T | undefined {
  return declareOnce(() => {
    try {
      return declare();
    } catch {
      return undefined;
    }
  });
}
