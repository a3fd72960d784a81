import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { AuthCard } from "@/components/auth/auth-card";
import { linkClass } from "@/components/ui/styles";
import { currentUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Your account · Lead Intake" };

export default async function AccountPage() {
  const user = await currentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent("/account")}`);
  return (
    <AuthCard title="Change password" subtitle={<>Signed in as {user.email}. Changing the password signs you out everywhere else.</>}>
      <ChangePasswordForm />
      <p className="mt-4 text-sm text-slate-600">
        <Link href="/" className={linkClass}>
          Back to your teams
        </Link>
      </p>
    </AuthCard>
  );
}
