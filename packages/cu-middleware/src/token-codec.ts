// The one place cu-middleware takes the DC v1 token codec from. It is pure TypeScript inside
// @vgwrdma/rdma-ffi; the package root also loads koffi (never the shim library itself), so this
// moves to the koffi-free subpath `@vgwrdma/rdma-ffi/token` once rdma-ffi exports it
// (native-shims/ABI-REQUESTS.md, entry 8).
export { tryParseRdmaToken } from '@vgwrdma/rdma-ffi';
