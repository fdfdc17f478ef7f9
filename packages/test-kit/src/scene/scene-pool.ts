// scenePool: for the files whose tests start their own gateways (one per flag combination, a
// restart on the same tree): a startScene whose scenes are all stopped, newest first, after each
// test ('each') or when the file's block ends ('all', the default). A test may stop one itself
// (stop() is idempotent), e.g. to restart on the same root.
import { afterAll, afterEach } from 'vitest';
import { type Scene, type SceneSource, startScene } from '../gateway-scene.js';

export type StartPooledScene = <U extends string = never>(source?: SceneSource<U>) => Promise<Scene<U>>;

/** Registers the afterEach/afterAll that stops the scenes; returns the function that starts them. */
export function scenePool(when: 'each' | 'all' = 'all'): StartPooledScene {
  const started: Scene<string>[] = [];
  (when === 'each' ? afterEach : afterAll)(async () => {
    for (const scene of started.splice(0).reverse()) await scene.stop();
  });
  return async (source) => {
    const scene = await startScene(source);
    started.push(scene as Scene<string>);
    return scene;
  };
}
