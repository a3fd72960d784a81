import type { Metadata } from "next";
import { AUDIT_PAGE_SIZE, listAuditEvents } from "@/lib/audit/audit-log";
import { MANAGERS, requireTeamPage } from "@/lib/auth/require-team-role";
import { AuditTable } from "@/components/audit/audit-table";
import { SectionHeader } from "@/components/settings/section-header";
import { NewestOlderNav } from "@/components/ui/newest-older-nav";

export const metadata: Metadata = { title: "Audit log · Team Settings · Lead Intake" };

// Owners and admins only: for anyone else the page is a 404, checked here on the server.
export default async function AuditPage(props: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<{ older?: string | string[] }>;
}) {
  const { slug } = await props.params;
  const { older } = await props.searchParams;
  const base = `/t/${slug}/settings/audit`;
  const { team } = await requireTeamPage(slug, base, MANAGERS);
  const cursor = typeof older === "string" && older.length <= 100 ? older : undefined;
  // One more than a page tells whether an older page exists.
  const rows = await listAuditEvents(team.id, { limit: AUDIT_PAGE_SIZE + 1, olderThan: cursor });
  const events = rows.slice(0, AUDIT_PAGE_SIZE);
  const olderHref = rows.length > AUDIT_PAGE_SIZE ? `${base}?older=${encodeURIComponent(events.at(-1)!.id)}` : null;
  return (
    <section>
      <SectionHeader
        title="Audit log"
        description="Who generated, copied or deleted an API key, invited a member, changed a role or removed a member: when and from which address. Newest first; visible to owners and admins."
      />
      <AuditTable events={events} />
      <NewestOlderNav label="Audit log pages" newestHref={cursor ? base : null} olderHref={olderHref} />
    </section>
  );
}
