// Every child process a test starts through the kit is tracked here and killed when the test file
// ends (killAllChildren from afterAll) or the worker exits, so a failing test never leaves a
// gateway behind.
import type { ChildProcess } from 'node:child_process';

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Tracks the child until it exits. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills every tracked child still running; call from afterAll. */
export function killAllChildren(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}
