import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { linkClass } from "@/components/ui/styles";

/** An invite link that is invalid, expired, revoked, replaced or used: answered 404. */
export default function InviteNotFound() {
  return (
    <AuthCard title="Invite not valid" subtitle="This invite link is invalid, has expired or was already used.">
      <p className="text-sm text-slate-600">
        Ask a team owner or admin for a new link, or{" "}
        <Link href="/signin" className={linkClass}>
          sign in
        </Link>
        .
      </p>
    </AuthCard>
  );
}
