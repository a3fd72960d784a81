import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { linkClass } from "@/components/ui/styles";

export default function ResetLinkNotFound() {
  return (
    <AuthCard title="Link not valid" subtitle="This password link is invalid, has expired or was already used.">
      <p className="text-sm text-slate-600">
        Ask the operator for a new one, or{" "}
        <Link href="/signin" className={linkClass}>
          sign in
        </Link>
        .
      </p>
    </AuthCard>
  );
}
