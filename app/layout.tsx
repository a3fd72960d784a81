import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: "Lead Intake",
  description: "Create CRM leads from your website forms and systems through one API.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: Next puts the response's CSP nonce (proxy.ts) on
  // its scripts only while rendering, and a page prerendered at build time has none.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
