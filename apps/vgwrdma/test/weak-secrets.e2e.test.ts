// The start-up warning for IAM accounts whose secret is shorter than 16 characters (issue 30,
// item 7): the built gateway with --iam-dir holding a 7-character, a 15-character, a
// 16-character and a 24-character secret prints one stderr line for each of the first two,
// naming the access key and never the secret, and still serves every account (a warning, not a
// refusal). Read once the process has exited, so every line it wrote is in.
import { ListBucketsCommand } from '@aws-sdk/client-s3';
import { type IamScene, type IamUser, startIamScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SHORT: IamUser = { access: 'shorty-key', secret: 'Zq9-wX2' };
const FIFTEEN: IamUser = { access: 'fifteen-key', secret: 'Fq8_15chars_xyz' };
const SIXTEEN: IamUser = { access: 'sixteen-key', secret: 'Sx7_16chars_wxyz' };
const LONG: IamUser = { access: 'long-key', secret: 'Lk4-a-long-secret-012345' };

describe('short IAM secrets at start', () => {
  let scene: IamScene;
  let stderr = '';
  beforeAll(async () => {
    expect([SHORT, FIFTEEN, SIXTEEN, LONG].map((u) => u.secret.length)).toEqual([7, 15, 16, 24]);
    scene = await startIamScene({ users: [SHORT, FIFTEEN, SIXTEEN, LONG] });
    // Every account signs in: the warning refuses nobody.
    for (const user of [SHORT, FIFTEEN, SIXTEEN, LONG])
      await scene.client(user).send(new ListBucketsCommand({}));
    await scene.gw.stop();
    stderr = scene.gw.stderr();
  });
  afterAll(() => scene?.stop());

  it('names each account under 16 characters once, by its access key', () => {
    const warnings = stderr.split('\n').filter((l) => l.startsWith('vgwrdma: WARNING: IAM account'));
    expect(warnings).toHaveLength(2);
    for (const line of warnings) expect(line).toMatch(/has a secret shorter than 16 characters/);
    const named = warnings.map((l) => /IAM account "([^"]*)"/.exec(l)?.[1]).sort();
    expect(named).toEqual(['fifteen-key', 'shorty-key']);
  });

  it('never prints a secret', () => {
    for (const user of [SHORT, FIFTEEN, SIXTEEN, LONG]) expect(stderr).not.toContain(user.secret);
    expect(scene.gw.stdout()).not.toContain(SHORT.secret);
  });
});
