/** A same-site path to return to after sign-in; anything else (absolute or protocol-relative URLs) becomes "/". */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  return value;
}
