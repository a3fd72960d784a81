import { parseAllowedOrigins } from "./allowed-origins";
import type { WebFormSettings } from "./web-form-store";

// A web form's settings as the Web Forms tab sends them (one FormData), checked.

export const MAX_FORM_NAME = 100;
export const MAX_SUCCESS_URL = 2_000;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** An absolute http(s) URL a browser can be sent to after a submission, or null. */
export function parseSuccessUrl(value: string): string | null {
  if (value.length > MAX_SUCCESS_URL) return null;
  try {
    const url = new URL(value);
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

export function parseWebFormSettings(form: FormData): { settings: WebFormSettings } | { problem: string } {
  const name = text(form, "name");
  if (!name) return { problem: "Give the form a name" };
  if (name.length > MAX_FORM_NAME) return { problem: `The name can be at most ${MAX_FORM_NAME} characters` };
  const origins = parseAllowedOrigins(text(form, "allowed_origins"));
  if ("problem" in origins) return origins;
  const successText = text(form, "success_url");
  const successUrl = successText ? parseSuccessUrl(successText) : null;
  if (successText && !successUrl) return { problem: "The success page must be a full http:// or https:// address" };
  return {
    settings: {
      name,
      allowedOrigins: origins.origins,
      sourceId: text(form, "source_id") || null,
      successUrl,
      challenge: form.get("challenge") === "on",
    },
  };
}
