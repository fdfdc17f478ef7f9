// The web console in a real browser (Debian's chromium, headless, through playwright-core) against
// the built app started with --webui, --iam-dir and RDMA (softnic on loopback): a wrong secret is
// refused; the root account signs in, creates a bucket, uploads by drag and drop (progress bar to
// 100 %) and a multipart-sized file, sees them in the explorer, downloads both and gets the same
// bytes; a key and a metadata value full of HTML show as text and run nothing; a user made on the
// users page signs in and sees no users page; a signature refused for its time says so and offers
// a new sign-in; the dashboard's RDMA byte counter rises while cuobjtest moves data by RDMA.
// Each page is saved as a screenshot (apps/vgwrdma/.webui-screenshots, git-ignored).
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { ROOT_CREDENTIALS } from '@vgwrdma/test-kit';
import { sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type Browser, browserMissing, launchBrowser, screenshotDir } from './helpers/browser.js';
import { cuobjtestCompare } from './helpers/cuobjtest.js';
import { webuiUrl } from './helpers/webui.js';

// The in-page callbacks run in the browser; the app's tsconfig has no DOM types, so they are named here.
declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const window: { __xss?: unknown; dispatchEvent(event: Event): boolean };
declare class DataTransfer {
  readonly items: { add(file: File): void };
}
declare class File {
  constructor(parts: Uint8Array[], name: string, options?: { type?: string });
}

const missing = browserMissing();
// A skipped file shows no test names in the default report: say why here.
if (missing !== undefined) process.stderr.write(`webui-console.e2e.test.ts: skipped, ${missing}\n`);
const BUCKET = 'console-e2e';
const USER = { access: 'console-user', secret: 'console-user-secret' };
const HTML_KEY = '<img src=x onerror=window.__xss=1>.txt';
const HTML_META = '<script>window.__xss=2</script>';
const test = sceneTest((dir) => ({
  iam: true,
  versioning: true,
  rdma: true,
  globalArgs: ['--webui', '127.0.0.1:0'],
  posixArgs: ['--sidecar', join(dir, 'meta')],
}));

describe.skipIf(missing !== undefined)(
  `web console in chromium${missing === undefined ? '' : ` (skipped: ${missing})`}`,
  () => {
    const the = sceneRef(test);
    let url: string;
    let browser: Browser;
    let shots: string;

    const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`) });

    async function signIn(page: Page, access: string, secret: string): Promise<void> {
      await page.goto(`${url}/`);
      await page.fill('#access-key', access);
      await page.fill('#secret-key', secret);
      await page.click('#sign-in');
    }

    test.beforeAll(async ({ scene }) => {
      url = webuiUrl(scene.gw.stdout());
      shots = await screenshotDir();
      browser = await launchBrowser();
      browser.context.on('page', (p) => {
        p.on('dialog', (d) => void d.accept());
        // The page's own errors end up in the test output, to read when a step fails.
        p.on('pageerror', (e) => process.stderr.write(`console page error: ${e.message}\n`));
      });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    it("refuses a wrong secret with the gateway's error code", async () => {
      const page = await browser.context.newPage();
      await signIn(page, ROOT_CREDENTIALS.access, 'not-the-secret');
      await expect.poll(() => page.textContent('.error-code')).toContain('SignatureDoesNotMatch');
      expect(await page.locator('#sign-out').count()).toBe(0);
      await shot(page, 'sign-in-refused');
      await page.close();
    });

    it('signs in, creates a bucket, uploads with progress to 100 % and downloads the same bytes', async () => {
      const page = await browser.context.newPage();
      await signIn(page, ROOT_CREDENTIALS.access, ROOT_CREDENTIALS.secret);
      await page.waitForSelector('#bucket-list, main p.muted');
      await page.fill('#new-bucket', BUCKET);
      await page.check('#new-versioning');
      await page.click('#create-bucket button[type=submit]');
      await page.waitForSelector(`#bucket-list a.bucket-link:text-is("${BUCKET}")`);
      await shot(page, 'buckets');

      await page.click(`#bucket-list a.bucket-link:text-is("${BUCKET}")`);
      await page.waitForSelector('#dropzone');
      // Drag and drop: a File built in the page from the test's bytes, dropped on the zone.
      const small = randomBytes(3 * 1024 * 1024 + 17);
      const drop = await page.evaluateHandle((b64: string) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], 'dropped.bin', { type: 'application/octet-stream' }));
        return dt;
      }, small.toString('base64'));
      await page.dispatchEvent('#dropzone', 'drop', { dataTransfer: drop });
      await page.waitForSelector('#upload-percent:has-text("dropped.bin: 100 % — uploaded")');
      expect(await page.getAttribute('#upload-progress', 'value')).toBe('100');
      await page.waitForSelector('button.object-name[data-key="dropped.bin"]');

      // Above the multipart threshold (16 MiB): parts, the same progress bar.
      const large = randomBytes(17 * 1024 * 1024);
      // From a file (the browser reads it itself): handing 17 MiB over the protocol is slow.
      const largePath = the.path('large.bin');
      await writeFile(largePath, large);
      await page.setInputFiles('#upload-input', largePath);
      await page.waitForSelector('#upload-percent:has-text("large.bin: 100 % — uploaded")', {
        timeout: 60_000,
      });
      await page.waitForSelector('button.object-name[data-key="large.bin"]');
      await shot(page, 'explorer');

      for (const [key, bytes] of [
        ['dropped.bin', small],
        ['large.bin', large],
      ] as const) {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.click(`button.download[data-key="${key}"]`),
        ]);
        expect(download.suggestedFilename()).toBe(key);
        const got = await readFile(await download.path());
        expect(got.equals(bytes)).toBe(true);
      }

      await page.click('button.object-name[data-key="dropped.bin"]');
      await page.waitForSelector('#versions-table');
      await page.click('#presign');
      await expect.poll(() => page.inputValue('#presigned-url')).toContain('X-Amz-Signature=');
      await shot(page, 'object-details');
      await page.goto(`${url}/#/bucket/${BUCKET}`);
      await page.waitForSelector('#versioning-current:has-text("Enabled")');
      // A policy that is not JSON is refused inline, before anything is sent.
      await page.fill('#policy-text', '{ not json');
      await page.click('#policy-save');
      await expect.poll(() => page.textContent('#policy-error')).toContain('Not valid JSON');
      await shot(page, 'bucket-settings');
      await page.close();
    });

    it('shows a key and a metadata value made of HTML as text, running nothing', async () => {
      await the.s3.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: HTML_KEY, Body: 'x', Metadata: { note: HTML_META } }),
      );
      const page = await browser.context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => dialogs.push(d.message()));
      await signIn(page, ROOT_CREDENTIALS.access, ROOT_CREDENTIALS.secret);
      await page.waitForSelector('#bucket-list');
      await page.goto(`${url}/#/browse/${BUCKET}`);
      const name = page.locator('button.object-name', { hasText: HTML_KEY });
      await name.waitFor();
      expect(await name.textContent()).toBe(HTML_KEY);
      expect(await page.locator('#objects img').count()).toBe(0);
      await name.click();
      const meta = page.locator('#meta-table td', { hasText: HTML_META });
      await meta.waitFor();
      expect(await meta.textContent()).toBe(HTML_META);
      expect(await page.locator('#object-panel script').count()).toBe(0);
      expect(await page.evaluate(() => window.__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);
      // A bucket with objects is not deleted, and the page says why (the confirm() is accepted).
      await page.goto(`${url}/#/buckets`);
      await page.click(`button[data-delete-bucket="${BUCKET}"]`);
      await expect.poll(() => page.textContent('.error-code')).toContain('BucketNotEmpty');
      expect(await page.textContent('.error-message')).toContain('delete them first');
      await page.waitForSelector(`#bucket-list a.bucket-link:text-is("${BUCKET}")`);
      await page.close();
    });

    it('makes a user on the users page, who then sees no users page', async () => {
      const admin = await browser.context.newPage();
      await signIn(admin, ROOT_CREDENTIALS.access, ROOT_CREDENTIALS.secret);
      await admin.waitForSelector('a[data-nav="users"]');
      await admin.click('a[data-nav="users"]');
      await admin.waitForSelector('#users-table');
      await admin.fill('#new-user-access', USER.access);
      await admin.fill('#new-user-secret', USER.secret);
      await admin.click('#create-user button[type=submit]');
      await admin.waitForSelector(`#users-table td:text-is("${USER.access}")`);
      // No secret of any account is on the page.
      expect(await admin.content()).not.toContain(USER.secret);
      await shot(admin, 'users');
      await admin.close();

      const page = await browser.context.newPage();
      await signIn(page, USER.access, USER.secret);
      await page.waitForSelector('#sign-out');
      await page.waitForSelector('text=No buckets yet.');
      expect(await page.locator('a[data-nav="users"]').count()).toBe(0);
      await page.goto(`${url}/#/users`);
      await page.waitForSelector('text=This page is for admin accounts only.');
      expect(await page.locator('#users-table').count()).toBe(0);
      await page.goto(`${url}/#/dashboard`);
      await page.waitForSelector('text=needs an admin account');
      await page.close();
    });

    it("the dashboard's RDMA byte counter rises while cuobjtest moves data by RDMA", async () => {
      const page = await browser.context.newPage();
      await signIn(page, ROOT_CREDENTIALS.access, ROOT_CREDENTIALS.secret);
      await page.waitForSelector('#sign-out');
      await page.goto(`${url}/#/dashboard`);
      await page.waitForSelector('#rdma-bytes-total');
      const before = Number(await page.textContent('#rdma-bytes-total'));
      const results = await cuobjtestCompare(the.gw.url, ROOT_CREDENTIALS);
      expect(results.every((r) => r.verified)).toBe(true);
      await page.waitForFunction(
        (n) => Number(document.querySelector('#rdma-bytes-total')?.textContent) > n,
        before,
        { timeout: 30_000 },
      );
      // cuobjtest's RDMA mode PUT and GET two 2 MiB objects: at least that much, once polled.
      await page.waitForFunction(
        (n) => Number(document.querySelector('#rdma-bytes-total')?.textContent) >= n,
        before + 2 * 2 * 2 ** 21,
        { timeout: 30_000 },
      );
      await page.waitForSelector('#agents');
      await shot(page, 'dashboard');
      await page.close();
    });

    it('says when the signature is refused for its time and offers to sign in again', async () => {
      const page = await browser.context.newPage();
      await page.clock.install();
      await signIn(page, ROOT_CREDENTIALS.access, ROOT_CREDENTIALS.secret);
      await page.waitForSelector('#sign-out');
      // The page's clock an hour ahead: its signatures are outside the gateway's 15-minute window.
      await page.clock.setSystemTime(Date.now() + 3_600_000);
      // Show the buckets again (the route runs on hashchange).
      await page.evaluate(() => window.dispatchEvent(new Event('hashchange')));
      await expect.poll(() => page.textContent('.error-code')).toContain('RequestTimeTooSkewed');
      await page.click('.error button:has-text("Sign in again")');
      await page.waitForSelector('#sign-in');
      expect(await page.textContent('.notice')).toContain('RequestTimeTooSkewed');
      // The clock belongs to the whole browser context: set it right again (this test runs last).
      await page.clock.setSystemTime(Date.now());
      await page.close();
    });
  },
);
