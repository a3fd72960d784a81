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
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {/* The first Tab stop of every page: past the header to the page's one <main id="main">. */}
        <a
          href="#main"
          className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          Skip to main content
        </a>
        {children}
      </body>
    </html>
  );
}
