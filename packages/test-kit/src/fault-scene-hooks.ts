// startFaultScene as a test file's hooks: `useFaultScene(options)` registers a beforeAll that
// starts the scene and an afterAll that closes it, and hands back the scene to use from the
// file's own hooks and tests. Vitest runs before-hooks in the order they were registered and
// after-hooks in reverse, so call it before the file's own hooks: they then see a started scene,
// and their teardown (clients, agent children) runs before the gateway goes.
import { afterAll, beforeAll } from 'vitest';
import { type FaultScene, type FaultSceneOptions, startFaultScene } from './fault-scene.js';

/**
 * Registers the scene's hooks. `options` may be a function, read when the scene starts (for
 * options a file's earlier hook makes: a mount, an address); `timeoutMs` bounds the start.
 */
export function useFaultScene(
  options: FaultSceneOptions | (() => FaultSceneOptions),
  timeoutMs?: number,
): FaultScene {
  let scene: FaultScene | undefined;
  beforeAll(async () => {
    scene = await startFaultScene(typeof options === 'function' ? options() : options);
  }, timeoutMs);
  afterAll(async () => {
    await scene?.close();
  });
  const current = (): FaultScene => {
    if (scene === undefined) throw new Error('the fault scene is not started yet (use it in a hook or test)');
    return scene;
  };
  return {
    get gw() {
      return current().gw;
    },
    get sdk() {
      return current().sdk;
    },
    close: () => current().close(),
  };
}
