// Live progress: one rewritten status line on stderr, only when stderr is a terminal, not under
// CI and not with --json (machine-readable runs stay byte-clean).

interface ProgressLine {
  show(text: string): void;
  clear(): void;
}

export interface ProgressTarget {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export function progressLine(
  target: ProgressTarget,
  env: Readonly<Record<string, string | undefined>>,
  json: boolean,
): ProgressLine {
  const live = target.isTTY === true && !json && !env.CI;
  let shown = false;
  return {
    show(text) {
      if (!live) return;
      target.write(`\r\x1b[2K${text} ...`);
      shown = true;
    },
    clear() {
      if (live && shown) target.write('\r\x1b[2K');
      shown = false;
    },
  };
}
