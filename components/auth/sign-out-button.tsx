"use client";

import { signOut } from "next-auth/react";
import { buttonClass } from "@/components/ui/styles";

export function SignOutButton({ callbackUrl = "/signin", label = "Sign out" }: { callbackUrl?: string; label?: string }) {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl })} className={buttonClass("ghost", "sm")}>
      {label}
    </button>
  );
}
