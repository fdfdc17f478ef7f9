// The flags most of these tests' cuobjtest runs begin with: the bucket (and key) to use, the
// object size and the number of timed iterations; the flags a test is about follow them.

export interface RunShape {
  /** -bucket; the bin's default when omitted. */
  readonly bucket?: string;
  /** -key; the bin's default when omitted. */
  readonly key?: string;
  /** -size, as the bin takes it ('4MiB'). */
  readonly size: string;
  /** -n */
  readonly n: number;
}

/** `-bucket B [-key K] -size S -n N` followed by `more`. */
export function runArgs(shape: RunShape, ...more: string[]): string[] {
  return [
    ...(shape.bucket === undefined ? [] : ['-bucket', shape.bucket]),
    ...(shape.key === undefined ? [] : ['-key', shape.key]),
    '-size',
    shape.size,
    '-n',
    String(shape.n),
    ...more,
  ];
}
