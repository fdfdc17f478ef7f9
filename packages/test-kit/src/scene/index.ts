// @vgwrdma/test-kit/scene: the vitest side of the kit (imports vitest, so it is a subpath of its
// own; the main entry stays usable from plain node scripts such as bench/).
export { appWorkDir } from './app-work-dir.js';
export { expectS3Error } from './expect-s3-error.js';
export { rejectionOf } from './rejection-of.js';
export { type StartPooledScene, scenePool } from './scene-pool.js';
export { type SceneRef, sceneRef } from './scene-ref.js';
export { sceneTest } from './scene-test.js';
export { thrownBy } from './thrown-by.js';
