import { labelClass } from "./styles";

/**
 * A labelled control: the label (for the control whose id is `id`) above it, "(optional)"
 * after it where `optional`. `children` is the control and whatever follows it, such as a
 * hint the control names in aria-describedby.
 */
export function Field({
  id,
  label,
  optional = false,
  className,
  children,
}: {
  id: string;
  label: React.ReactNode;
  optional?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
        {optional ? (
          <>
            {" "}
            <span className="font-normal text-slate-500">(optional)</span>
          </>
        ) : null}
      </label>
      {children}
    </div>
  );
}
