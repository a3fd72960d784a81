import { NotFoundMessage } from "@/components/layout/not-found-message";

export default function NotFound() {
  return (
    <main>
      <NotFoundMessage />
    </main>
  );
}
