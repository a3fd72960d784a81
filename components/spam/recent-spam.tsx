import Link from "next/link";
import { linkClass } from "@/components/ui/styles";

/**
 * A channel's card's "Spam (24 h)": how many of its submissions the spam checks set aside in
 * the last 24 hours, a link to Leads → Spam; nothing when there were none. A term and its
 * detail, for the card's description list.
 */
export function RecentSpam({ slug, count, termClass }: { slug: string; count: number | undefined; termClass: string }) {
  if (!count) return null;
  return (
    <>
      <dt className={termClass}>Spam (24 h)</dt>
      <dd className="text-slate-800">
        <Link href={`/t/${slug}/leads/spam`} className={linkClass}>
          {`${count.toLocaleString("en-US")} ${count === 1 ? "submission" : "submissions"} in Leads → Spam`}
        </Link>
      </dd>
    </>
  );
}
