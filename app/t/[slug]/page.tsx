import { redirect } from "next/navigation";

export default async function TeamHome({ params }: { params: Promise<{ slug: string }> }) {
  redirect(`/t/${(await params).slug}/leads`);
}
