// Whether a flag value is an absolute http:// or https:// URL (the webhook target, the admin
// endpoint): one check, so a value that is no URL at all fails with the same message.
export function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}
