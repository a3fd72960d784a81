// Summarises a V8 .cpuprofile (node --cpu-prof): self time per function and per package,
// top first. Usage: tsx scripts/bench/profile-summary.ts [--top=25] <file.cpuprofile>…
import { readFileSync } from "node:fs";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

function where(url: string): string {
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.includes("/.next/")) return "app (.next bundle)";
  if (url.startsWith("node:") || url === "") return "node/V8";
  return url.replace(/^file:\/\//, "");
}

export function summarise(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = profile.endTime - profile.startTime;
  let idle = 0;
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") {
      idle += micros;
      continue;
    }
    const name = `${frame.functionName || "(anonymous)"}  ${where(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
    const pkg = frame.url ? where(frame.url) : frame.functionName;
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const busy = total - idle;
  const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %`;
  const rank = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} %). Shares below are of busy time.`,
    "",
    "Self time by package:",
    ...rank(packages).map(([name, micros]) => `${pct(micros)}  ${name}`),
    "",
    "Self time by function:",
    ...rank(functions).map(([name, micros]) => `${pct(micros)}  ${name}`),
  ].join("\n");
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2);
  const top = Number(args.find((a) => a.startsWith("--top="))?.slice("--top=".length) ?? 25);
  const files = args.filter((a) => !a.startsWith("--"));
  if (!files.length || !Number.isInteger(top)) throw new Error("usage: tsx scripts/bench/profile-summary.ts [--top=25] <file.cpuprofile>…");
  console.log(files.map((file) => summarise(file, top)).join("\n\n"));
}
