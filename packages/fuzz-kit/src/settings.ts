// How many cases a property test runs and with which seed: CI (FUZZ_RUNS unset) replays one fixed
// seed with the file's default count; stress runs (FUZZ_RUNS set) draw fresh seeds, and FUZZ_SEED
// replays one. `params` goes to fc.assert, `timeout` to vitest.
export interface FuzzSettings {
  readonly timeout: number;
  readonly params: { numRuns: number; seed?: number };
}

/** What a file may keep of its own: the seed CI replays, the milliseconds its timeout allows per run. */
export interface FuzzOptions {
  readonly ciSeed?: number;
  readonly msPerRun?: number;
}

const CI_SEED = 20261129;
const MS_PER_RUN = 3;

export function fuzzSettings(defaultRuns: number, options: FuzzOptions = {}): FuzzSettings {
  const runs = Number(process.env.FUZZ_RUNS) || defaultRuns;
  const seed = process.env.FUZZ_SEED
    ? Number(process.env.FUZZ_SEED)
    : process.env.FUZZ_RUNS
      ? undefined
      : (options.ciSeed ?? CI_SEED);
  return {
    timeout: 30_000 + runs * (options.msPerRun ?? MS_PER_RUN),
    params: { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
  };
}
