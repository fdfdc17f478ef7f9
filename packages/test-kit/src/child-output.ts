// A child's stdout and stderr gathered as text, and its exit as a promise.
import type { ChildProcess } from 'node:child_process';

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface Output {
  stdout(): string;
  stderr(): string;
}

export function collectOutput(child: ChildProcess): Output {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Resolves once the child has exited and its streams are closed. */
export function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

/**
 * Resolves with the first capture group of `pattern` once stdout matches; rejects, with the
 * child's stderr and `what` it was waiting for, if the child exits first.
 */
export function waitForStdout(
  child: ChildProcess,
  out: Output,
  exited: Promise<Exit>,
  pattern: RegExp,
  what: string,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const onData = (): void => {
      const match = pattern.exec(out.stdout());
      if (match?.[1] !== undefined) {
        child.stdout?.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((exit) =>
      reject(new Error(`process exited (${exit.code ?? exit.signal}) before ${what}:\n${out.stderr()}`)),
    );
  });
}
