// --event-webhook-url and its queue bounds: off by default, read from versitygw's environment
// variable, and a bad value is a UsageError naming the flag.

import { UsageError } from '@vgwrdma/errors';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/config.js';

const creds = { ROOT_ACCESS_KEY_ID: 'ak', ROOT_SECRET_ACCESS_KEY: 'sk' };
const config = (argv: string[], env: Record<string, string> = creds) => {
  const c = parseCommandLine([...argv, 'posix', '/data'], env, '/cwd');
  if (c.kind !== 'serve') throw new Error(c.kind);
  return c.config;
};

describe('event notification flags', () => {
  it('are off unless a webhook URL is given', () => {
    expect(config([]).events).toBeUndefined();
    expect(config(['--event-webhook-url', 'http://127.0.0.1:9000/e']).events).toEqual({
      webhookUrl: 'http://127.0.0.1:9000/e',
      capacity: 1000,
      maxAttempts: 5,
    });
    expect(
      config(['--event-queue-size', '7', '--event-max-attempts', '2'], {
        ...creds,
        VGW_EVENT_WEBHOOK_URL: 'https://hooks.example/x',
      }).events,
    ).toEqual({ webhookUrl: 'https://hooks.example/x', capacity: 7, maxAttempts: 2 });
  });

  it.each([
    [['--event-webhook-url', 'ftp://x'], 'invalid --event-webhook-url "ftp://x"'],
    [['--event-webhook-url', 'not a url'], 'invalid --event-webhook-url "not a url"'],
    [['--event-webhook-url', 'http://h', '--event-queue-size', '0'], 'invalid --event-queue-size "0"'],
  ])('refuses %j', (argv, message) => {
    expect(() => config(argv)).toThrow(UsageError);
    expect(() => config(argv)).toThrow(message);
  });
});
