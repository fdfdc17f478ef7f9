// Samples a process's RSS over a run and says whether it stayed flat after warm-up: the slope of
// a least-squares line through the post-warm-up samples, and the growth from the end of warm-up
// to the end of the run. The samples are kept, so a report can show the curve.
import { rssBytes } from './proc-stats.js';

const MiB = 1024 * 1024;

export interface RssSample {
  /** Seconds since the sampler started. */
  readonly t: number;
  readonly rssMiB: number;
}

export interface RssSummary {
  readonly samples: readonly RssSample[];
  readonly warmupSeconds: number;
  readonly atWarmupEndMiB: number;
  readonly peakMiB: number;
  readonly lastMiB: number;
  /** Post-warm-up slope, MiB per minute. */
  readonly slopeMiBPerMin: number;
  /** Mean of the last quarter of samples minus the mean of the first quarter after warm-up. */
  readonly growthMiB: number;
}

export interface RssSampler {
  stop(): RssSummary;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function sampleRss(pid: number, everyMs: number, warmupSeconds: number): RssSampler {
  const t0 = Date.now();
  const samples: RssSample[] = [];
  const take = () => {
    try {
      samples.push({ t: (Date.now() - t0) / 1000, rssMiB: rssBytes(pid) / MiB });
    } catch {
      // the process is gone
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      const after = samples.filter((s) => s.t >= warmupSeconds);
      const tm = mean(after.map((s) => s.t));
      const rm = mean(after.map((s) => s.rssMiB));
      const num = after.reduce((a, s) => a + (s.t - tm) * (s.rssMiB - rm), 0);
      const den = after.reduce((a, s) => a + (s.t - tm) ** 2, 0);
      const q = Math.max(1, Math.floor(after.length / 4));
      const round = (x: number) => Math.round(x * 10) / 10;
      return {
        samples: samples.map((s) => ({ t: round(s.t), rssMiB: round(s.rssMiB) })),
        warmupSeconds,
        atWarmupEndMiB: round(after[0]?.rssMiB ?? 0),
        peakMiB: round(Math.max(...samples.map((s) => s.rssMiB))),
        lastMiB: round(samples.at(-1)?.rssMiB ?? 0),
        slopeMiBPerMin: round(den > 0 ? (num / den) * 60 : 0),
        growthMiB: round(
          mean(after.slice(-q).map((s) => s.rssMiB)) - mean(after.slice(0, q).map((s) => s.rssMiB)),
        ),
      };
    },
  };
}
