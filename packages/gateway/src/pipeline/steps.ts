// The request pipeline's fixed steps, in order, and the named points between them where plugins
// hook in (the aws-sdk MiddlewareStack idea: a plugin says where, never how the chain is built).
//
//   request id → observe → health → ready → request limit
//   ├─ beforeTarget        plugins' own middleware, then GatewayOptions.middlewares
//   target                 parse the request line and Host, validate names, match the route,
//   │                      refuse on the wrong listener, console CORS headers   → target, route
//   ├─ afterTarget
//   preflight              OPTIONS: answer the CORS preflight, nothing after it runs
//   authenticate           SigV4 / SigV2, header or presigned                    → auth, account
//   ├─ afterAuthenticate   the RDMA plugin: token → descriptor, trust decisions  → backendContext
//   authorize              read-only / admin rules, ACL and policy, CORS headers  → requestContext,
//   │                                                                            authz, backend
//   ├─ afterAuthorize
//   body                   100-continue, then the body decoder (aws-chunked, plain) → body
//   ├─ afterBody
//   handler                the route row's handler, over the S3Request built from the variables

/** Where a plugin may add a middleware; within one point plugins run in their list order. */
export const PLUGIN_STEPS = [
  'beforeTarget',
  'afterTarget',
  'afterAuthenticate',
  'afterAuthorize',
  'afterBody',
] as const;

export type PluginStep = (typeof PLUGIN_STEPS)[number];
