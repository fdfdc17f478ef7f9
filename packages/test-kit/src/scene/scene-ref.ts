// sceneRef: a file's sceneTest scene for the code that runs outside a test's own fixtures (module
// helpers, describe blocks whose tests use plain `it`). It registers one `test.beforeAll` that
// asks for the scene, and hands back an object whose getters read it from then on: the gateway
// starts as before (lazily, for the tests of the block it is called in) and is torn down by the
// fixture as before.

import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { GatewayProcess } from '../gateway-process.js';
import type { Scene } from '../gateway-scene.js';

/** The part of a sceneTest object sceneRef needs: its beforeAll with the scene fixture. */
interface SceneHook<U extends string> {
  beforeAll(fn: (context: { scene: Scene<U> }) => unknown): void;
}

export interface SceneRef<U extends string = never> {
  readonly scene: Scene<U>;
  /** The gateway process (its url, port, stdout/stderr, child). */
  readonly gw: GatewayProcess;
  /** The root account's S3 client. */
  readonly s3: S3Client;
  /** A path inside the scene's own folder (where a scene source put --access-log and the like). */
  path(...parts: string[]): string;
}

/** `const the = sceneRef(test)`; then `the.gw`, `the.s3`, `the.path('access.log')` in the tests. */
export function sceneRef<U extends string = never>(test: SceneHook<U>): SceneRef<U> {
  let current: Scene<U> | undefined;
  test.beforeAll(({ scene }) => {
    current = scene;
  });
  const scene = (): Scene<U> => {
    if (current === undefined) throw new Error('sceneRef: the scene exists once its beforeAll ran');
    return current;
  };
  return {
    get scene() {
      return scene();
    },
    get gw() {
      return scene().gw;
    },
    get s3() {
      return scene().s3;
    },
    path: (...parts) => join(scene().dir, ...parts),
  };
}
