// The well-known credentials `npm start` uses when none are set. They are public (they are in the
// README), which is why the banner may print this secret and no other.
export const DEFAULT_CREDENTIALS = {
  access: 'vgwrdma',
  secret: 'vgwrdma-secret',
} as const;

export const DEFAULT_PORT = ':7070';
