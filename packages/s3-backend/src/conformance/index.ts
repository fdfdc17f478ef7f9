// Placeholder replaced by the conformance kit.
export {};
