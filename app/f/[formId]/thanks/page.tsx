import type { Metadata } from "next";
import { HostedCard } from "@/components/web-forms/hosted-card";

export const metadata: Metadata = { title: "Thank you" };

// Where a web form's visitor lands after sending it, when the form has no success page of its own.
export default function ThanksPage() {
  return (
    <HostedCard title="Thank you!" subtitle="Your message was sent.">
      <p className="text-sm text-slate-700">We received your details and will be in touch soon. You can close this page.</p>
    </HostedCard>
  );
}
