// @vgwrdma/test-kit: shared test scaffolding (private).
export {};
