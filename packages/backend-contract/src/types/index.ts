export * from './bucket.js';
export * from './common.js';
export * from './context.js';
export * from './listing.js';
export * from './multipart.js';
export * from './object.js';
