// The well-known credentials `npm start` uses when none are set. They are public (they are in the
// README), which is why the banner may print this secret and no other.
export const DEFAULT_CREDENTIALS = {
  access: 'vgwrdma',
  secret: 'vgwrdma-secret',
} as const;

/** The app's own default (versitygw's): every interface, with keys the operator must give. */
export const DEFAULT_PORT = ':7070';

/**
 * Where `npm start` (scripts/start.mjs) listens unless VGW_PORT or --port says otherwise: loopback
 * only, because it serves with the published DEFAULT_CREDENTIALS.
 */
export const START_ADDRESS = '127.0.0.1:7070';
