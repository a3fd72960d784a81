"use client";

import { signOut } from "next-auth/react";
import { buttonClass } from "@/components/ui/styles";

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/signin" })} className={buttonClass("ghost", "sm")}>
      Sign out
    </button>
  );
}
