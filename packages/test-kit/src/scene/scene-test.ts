// sceneTest: a vitest `test` whose fixtures are a gateway scene (gateway-scene.ts) described by
// data. Every fixture is file-scoped and lazy: the gateway starts when the first test (or
// `test.beforeAll`) of the file asks for one of them, is shared by the file's tests, and is torn
// down when the file ends (clients destroyed, gateway stopped, folders removed). Two sceneTest
// objects in one file are two independent gateways.
import type { S3Client } from '@aws-sdk/client-s3';
import { test } from 'vitest';
import type { AwsRunner } from '../aws-cli.js';
import { type Scene, type SceneSource, startScene } from '../gateway-scene.js';

function clientsOf<U extends string>(scene: Scene<U>): Record<U, S3Client> {
  const entries = Object.entries(scene.users) as [U, Scene<U>['users'][U]][];
  return Object.fromEntries(entries.map(([name, user]) => [name, scene.client(user)])) as Record<U, S3Client>;
}

/**
 * `const test = sceneTest({ users: { bob: BOB }, buckets: ['b'] })`, then
 * `test('...', async ({ s3, clients, url, aws, scene }) => ...)`:
 * - `scene`: the Scene (gw, url, root, dir, iamDir, client(), aws(), writeUsers());
 * - `url`: the endpoint; `s3`: the root account's client; `clients`: a client per named user;
 * - `aws`: an AWS CLI runner with the root account (skip the test when AWS_BIN is undefined).
 */
export function sceneTest<U extends string = never>(source: SceneSource<U> = {}) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern
      .extend('scene', { scope: 'file' }, async ({}, { onCleanup }) => {
        const scene = await startScene(source);
        onCleanup(() => scene.stop());
        return scene;
      })
      .extend('url', { scope: 'file' }, async ({ scene }) => scene.url)
      .extend('s3', { scope: 'file' }, async ({ scene }) => scene.s3)
      .extend('clients', { scope: 'file' }, async ({ scene }) => clientsOf(scene))
      .extend('aws', { scope: 'file' }, async ({ scene }): Promise<AwsRunner> => scene.aws())
  );
}
