"use client";

import { useState, useTransition } from "react";
import { changeRoleAction } from "@/app/t/[slug]/settings/members/actions";
import type { Role } from "@/lib/teams/team-store";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { ROLE_LABEL } from "./role-label";

/** An owner's role control for one member: choose, then Save (no navigation on arrow keys). */
export function RoleSelect({ slug, userId, email, role }: { slug: string; userId: string; email: string; role: Role }) {
  const [value, setValue] = useState<Role>(role);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const id = `role-${userId}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Role of {email}
      </label>
      <select id={id} value={value} onChange={(e) => setValue(e.target.value as Role)} className={`${inputClass} w-32 min-w-32 py-1.5`}>
        {(Object.keys(ROLE_LABEL) as Role[]).map((r) => (
          <option key={r} value={r}>
            {ROLE_LABEL[r]}
          </option>
        ))}
      </select>
      {value !== role ? (
        <button
          type="button"
          disabled={pending}
          aria-label={`Save role of ${email}`}
          onClick={() =>
            startTransition(async () => {
              const result = await changeRoleAction(slug, userId, value);
              if (result.ok) setError(null);
              else {
                setError(result.error);
                setValue(role);
              }
            })
          }
          className={buttonClass("primary", "sm")}
        >
          Save
        </button>
      ) : null}
      {error ? (
        <p role="alert" className="w-full text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
