import { signOutAction } from "@/app/sign-out-action";
import { buttonClass } from "@/components/ui/styles";

/** A form, not a client call: it signs out even before the page's scripts have loaded. */
export function SignOutButton({ callbackUrl = "/signin", label = "Sign out" }: { callbackUrl?: string; label?: string }) {
  return (
    <form action={signOutAction}>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <button type="submit" className={buttonClass("ghost", "sm")}>
        {label}
      </button>
    </form>
  );
}
