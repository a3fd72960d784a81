import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { AuthCard } from "@/components/auth/auth-card";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { currentUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in · Lead Intake" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const callbackUrl = safeCallbackUrl((await searchParams).callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  return (
    <AuthCard title="Sign in to Lead Intake" subtitle="Manage your team's API keys and leads.">
      <SignInForm callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
