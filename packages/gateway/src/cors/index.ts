// CORS: bucket rules (parsed from the stored configuration), preflight and response headers.
export { type CorsRule, parseCorsRules } from './cors-config.js';
export { type CorsQuery, corsHeaders, matchCorsRule } from './cors-match.js';
export { actualCorsHeaders, preflightResponse } from './cors-response.js';
