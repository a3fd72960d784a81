import { ApiIntegrationNav } from "./api-integration-nav";
import { SectionHeader } from "./section-header";

/** A page of Team Settings → API Integration: the group's heading and sub-tabs, then the page's own header. */
export function ApiIntegrationSection({
  slug,
  title,
  description,
  action,
  children,
}: {
  slug: string;
  title: string;
  description: React.ReactNode;
  action?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby="api-integration-title">
      <h2 id="api-integration-title" className="sr-only">
        API Integration
      </h2>
      <ApiIntegrationNav slug={slug} />
      <SectionHeader title={title} description={description} action={action} />
      {children}
    </section>
  );
}
