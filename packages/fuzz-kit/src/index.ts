// The fuzz kit: fast-check settings (runs, seed, timeout) and the DC v1 token fields arbitrary.
export { type FuzzOptions, type FuzzSettings, fuzzSettings } from './settings.js';
export { type TokenFieldArbs, type TokenFields, tokenFieldsArb, U64_MAX } from './token-fields.js';
