// @vgwrdma/errors — the project's one error catalogue: every `VGW_ERR_*` code, grouped by the class
// that raises it, the `VgwrdmaError` base and `isVgwrdmaError`. No dependencies, no Node APIs, so
// every package (the pure protocol one included) can throw coded errors from the same table.

export * from './errors.js';
export * from './usage-error.js';
