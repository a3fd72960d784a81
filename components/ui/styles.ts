// Shared Tailwind class lists, so every control has the same size, colours and focus ring.

/** The keyboard focus ring, also for focusable non-controls such as a scrollable region. */
export const focusRingClass = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

const focus = `${focusRingClass} disabled:cursor-not-allowed`;

const variants = {
  primary: "bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 disabled:bg-indigo-300",
  secondary:
    "bg-white text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:bg-slate-100 disabled:text-slate-500",
  // Hover darkens: white text on red-500 is below 4.5:1.
  danger: "bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-300",
  ghost: "text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-400",
} as const;

export type ButtonVariant = keyof typeof variants;

export function buttonClass(variant: ButtonVariant = "primary", size: "sm" | "md" = "md"): string {
  const sizing = size === "sm" ? "gap-1 px-2.5 py-1.5 text-xs" : "gap-1.5 px-3.5 py-2 text-sm";
  return `inline-flex items-center justify-center rounded-md font-medium transition-colors ${sizing} ${variants[variant]} ${focus}`;
}

export const iconButtonClass = `inline-flex h-8 w-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 ${focus}`;

export const inputClass =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500";

export const labelClass = "block text-sm font-medium text-slate-800";

export const cardClass = "rounded-xl border border-slate-200 bg-white shadow-sm";

export const linkClass =
  "font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 rounded-sm";
