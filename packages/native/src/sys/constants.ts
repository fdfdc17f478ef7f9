// Linux ABI numbers the typed libc calls of this folder take: the same on x86_64 and arm64.

/** The "current directory" descriptor of the *at() calls. */
export const AT_FDCWD = -100;
