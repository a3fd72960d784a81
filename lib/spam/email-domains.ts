// Issue 42 check 2: disposable e-mail domains (the disposable-email-domains project's curated
// list, through disposable-email-domains-js) and, for teams that
// accept business addresses only, free-mail domains (email-providers' list, less the
// disposable ones). Both lists load once per process, on first import. A subdomain of a
// listed domain counts; case and a trailing dot do not matter. docs/spam.md names the
// packages, their licences and how they are kept current.
import { domainToASCII } from "node:url";
import freeMailList from "email-providers/all.json";
import disposableDomains from "disposable-email-domains-js";

const DISPOSABLE: ReadonlySet<string> = disposableDomains.disposableEmailBlocklistSet();
const FREE_MAIL: ReadonlySet<string> = new Set(freeMailList.filter((domain) => !DISPOSABLE.has(domain)));

/** A domain in lower-case ASCII (punycode), without a leading "@" or trailing dots. */
export function normalizeDomain(text: string): string {
  const domain = text.trim().replace(/^@/, "").replace(/\.+$/, "").toLowerCase();
  // domainToASCII is slow next to a set lookup; most domains are ASCII already.
  if (/^[a-z0-9.-]*$/.test(domain)) return domain;
  return domainToASCII(domain) || domain;
}

/** The address's domain, normalized; null when there is none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf("@");
  return at < 0 ? null : normalizeDomain(email.slice(at + 1)) || null;
}

/** Whether the domain or one of its parent domains is in the set. */
export function domainInSet(domain: string, set: ReadonlySet<string>): boolean {
  let current = domain;
  for (;;) {
    if (set.has(current)) return true;
    const dot = current.indexOf(".");
    if (dot < 0) return false;
    current = current.slice(dot + 1);
  }
}

export const isDisposableDomain = (domain: string): boolean => domainInSet(domain, DISPOSABLE);
export const isFreeMailDomain = (domain: string): boolean => domainInSet(domain, FREE_MAIL);
