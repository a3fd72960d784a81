// Inline icons (24×24, stroke). Decorative: the control around them carries the name.

import { Fragment } from "react";

type IconProps = { className?: string };

/**
 * An icon component drawing `shapes` in the app's stroke style: a string is a path's `d`,
 * anything else (a circle, a rect) is drawn as it is.
 */
function icon(...shapes: (string | React.ReactElement)[]) {
  return function Icon({ className = "h-4 w-4" }: IconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={className}
        aria-hidden="true"
        focusable="false"
      >
        {shapes.map((shape, i) => (typeof shape === "string" ? <path key={i} d={shape} /> : <Fragment key={i}>{shape}</Fragment>))}
      </svg>
    );
  };
}

export const CopyIcon = icon(<rect x="9" y="9" width="12" height="12" rx="2" />, "M5 15V5a2 2 0 0 1 2-2h10");
export const CheckIcon = icon("m5 12 5 5L20 7");
export const TrashIcon = icon("M4 7h16M10 11v6M14 11v6M6 7l1 13a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1l1-13M9 7V4h6v3");
export const KeyIcon = icon(<circle cx="8" cy="15" r="4" />, "m11 12 9-9M17 6l3 3M15 8l2 2");
export const PlusIcon = icon("M12 5v14M5 12h14");
export const WarningIcon = icon("M12 3 2 21h20L12 3zM12 10v5M12 18h.01");
export const ChevronIcon = icon("m6 9 6 6 6-6");
export const SearchIcon = icon(<circle cx="11" cy="11" r="7" />, "m20 20-4-4");
export const UsersIcon = icon(<circle cx="9" cy="8" r="4" />, "M2 21a7 7 0 0 1 14 0M16 4a4 4 0 0 1 0 8M22 21a7 7 0 0 0-4-6.3");
export const MenuIcon = icon("M4 6h16M4 12h16M4 18h16");
