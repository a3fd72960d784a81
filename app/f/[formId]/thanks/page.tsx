import type { Metadata } from "next";
import { HostedCard } from "@/components/web-forms/hosted-card";
import { formConfirmsByEmail } from "@/lib/web-forms/web-form-store";

export const metadata: Metadata = { title: "Thank you" };

// Where a web form's visitor lands after sending it, when the form has no success page of its own.
// A form with double opt-in (docs/consent.md) also says to look for the confirmation email.
export default async function ThanksPage(props: { params: Promise<{ formId: string }> }) {
  const confirms = await formConfirmsByEmail((await props.params).formId);
  return (
    <HostedCard title="Thank you!" subtitle="Your message was sent.">
      <p className="text-sm text-slate-700">We received your details and will be in touch soon. You can close this page.</p>
      {confirms ? (
        <p className="mt-3 text-sm text-slate-700">If you gave your consent, check your email: we sent you a link to confirm it.</p>
      ) : null}
    </HostedCard>
  );
}
