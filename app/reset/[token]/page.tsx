import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { ResetPasswordForm } from "@/components/account/reset-password-form";
import { findOpenReset } from "@/lib/users/password-reset-store";

export const metadata: Metadata = { title: "Set a new password · Lead Intake", referrer: "no-referrer" };

// A link that is unknown, used, replaced or expired answers 404 (./not-found.tsx says why).
export default async function ResetPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await findOpenReset(token);
  if (!reset) notFound();
  return (
    <AuthCard title="Set a new password" subtitle={<>For {reset.email}. Every session of this account will be signed out.</>}>
      <ResetPasswordForm token={token} email={reset.email} />
    </AuthCard>
  );
}
