import { NotFoundMessage } from "@/components/layout/not-found-message";

// A lead or key of this team that does not exist: shown inside the team layout, whose
// <main> already holds it (a second one would nest landmarks).
export default function TeamNotFound() {
  return <NotFoundMessage />;
}
