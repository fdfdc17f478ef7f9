// startFaultScene as a test file's hooks (file-resource.ts): `useFaultScene(options)` starts the
// scene in a beforeAll and closes it in an afterAll, and hands back the scene to use from the
// file's own hooks and tests. Call it before the file's own hooks: they then see a started scene,
// and their teardown (clients, agent children) runs before the gateway goes.
import { type FaultScene, type FaultSceneOptions, startFaultScene } from './fault-scene.js';
import { useFileResource } from './file-resource.js';

/**
 * Registers the scene's hooks. `options` may be a function, read when the scene starts (for
 * options a file's earlier hook makes: a mount, an address); `timeoutMs` bounds the start.
 */
export function useFaultScene(
  options: FaultSceneOptions | (() => FaultSceneOptions),
  timeoutMs?: number,
): FaultScene {
  const scene = useFileResource(
    'the fault scene',
    () => startFaultScene(typeof options === 'function' ? options() : options),
    (s) => s.close(),
    timeoutMs,
  );
  return {
    get gw() {
      return scene().gw;
    },
    get sdk() {
      return scene().sdk;
    },
    close: () => scene().close(),
  };
}
