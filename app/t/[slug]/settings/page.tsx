import { redirect } from "next/navigation";

export default async function SettingsHome({ params }: { params: Promise<{ slug: string }> }) {
  redirect(`/t/${(await params).slug}/settings/general`);
}
