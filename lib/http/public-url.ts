import { headers } from "next/headers";
import { env } from "../env";

/** This deployment's base URL: NEXTAUTH_URL when set (npm start sets it), else the request's host. */
export async function publicBaseUrl(): Promise<string> {
  const configured = env().NEXTAUTH_URL;
  if (configured) return configured.replace(/\/+$/, "");
  const list = await headers();
  const host = list.get("x-forwarded-host") ?? list.get("host") ?? "localhost:3000";
  const proto = list.get("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}
