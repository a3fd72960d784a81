// Where the CPU of one create goes: the server's V8 CPU profile (node --cpu-prof) over a
// window of create_lead load, each sample's stack mapped to its source (the .next bundle's
// frames through the build's source maps) and given to a stage (scripts/bench/stage-of.ts),
// summed, and divided by the creates answered in the window. Compared with the CPU the
// kernel counted for the server in the same window: its main thread (what the profile
// samples) and its other threads (GC helpers, the JIT compiler, libuv), docs/performance.md
// "Where a create's CPU goes".
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { STAGES, stageOf, type Frame, type Stage } from "./stage-of";

const ROOT = path.resolve(import.meta.dirname, "../..");

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** A window of the profile, in µs of the monotonic clock (process.hrtime in the bench, V8's TimeTicks in the server). */
export type Window = { fromMicros: number; toMicros: number };

/** What the kernel counted for the server over the window (µs), from /proc. */
export type KernelCpu = { mainThreadMicros: number; processMicros: number };

export type Breakdown = {
  creates: number;
  /** µs per create, by stage, from the profile. */
  stages: { stage: Stage; micros: number }[];
  /** The profile's busy time (not idle) per create. */
  profiledMicros: number;
  mainThreadMicros: number;
  otherThreadsMicros: number;
  samples: number;
};

/** Maps a profile frame's url and position to a location of this repository, a package or Node's. */
function locator(): (frame: CallFrame) => string {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      const mapFile = `${file}.map`;
      maps.set(file, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8"))) : null);
    }
    return maps.get(file)!;
  };
  const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join("/");
  return (frame) => {
    if (!frame.url) return "";
    if (frame.url.startsWith("node:")) return frame.url;
    const file = frame.url.startsWith("file://") ? fileURLToPath(frame.url) : frame.url;
    const map = file.includes(`${path.sep}.next${path.sep}`) ? mapOf(file) : null;
    if (!map) return relative(file);
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string };
    if (!entry.originalSource) return relative(file);
    const source = entry.originalSource.startsWith("file://")
      ? fileURLToPath(entry.originalSource)
      : path.resolve(path.dirname(file), entry.originalSource.replace(/^[a-z]+:\/\/\/?(\[project\]\/)?/i, ""));
    return relative(source);
  };
}

/** Sums the profile's samples inside the window by stage; per create. */
export function breakdown(profile: CpuProfile, window: Window, creates: number, kernel: KernelCpu): Breakdown {
  const locate = locator();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOfNode = new Map<number, Stage | "idle">();
  const stageFor = (id: number): Stage | "idle" => {
    const known = stageOfNode.get(id);
    if (known) return known;
    const leaf = byId.get(id)!.callFrame;
    let stage: Stage | "idle";
    if (leaf.functionName === "(idle)") stage = "idle";
    else {
      const stack: Frame[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        stack.push({ location: locate(frame), functionName: frame.functionName });
      }
      stage = stageOf(stack);
    }
    stageOfNode.set(id, stage);
    return stage;
  };

  const totals = new Map<Stage, number>(STAGES.map((stage) => [stage, 0]));
  let time = profile.startTime;
  let samples = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    // A sample's time is the interval up to the next one.
    const span = profile.timeDeltas[i + 1] ?? 0;
    if (time < window.fromMicros || time >= window.toMicros) continue;
    const stage = stageFor(profile.samples[i]!);
    if (stage === "idle") continue;
    totals.set(stage, totals.get(stage)! + span);
    samples++;
  }
  const perCreate = (micros: number) => micros / Math.max(creates, 1);
  const stages = STAGES.map((stage) => ({ stage, micros: perCreate(totals.get(stage)!) }));
  return {
    creates,
    stages,
    profiledMicros: stages.reduce((sum, s) => sum + s.micros, 0),
    mainThreadMicros: perCreate(kernel.mainThreadMicros),
    otherThreadsMicros: perCreate(kernel.processMicros - kernel.mainThreadMicros),
    samples,
  };
}

/**
 * The breakdown as a markdown table, with the comparison with the kernel's count; with the
 * limit row's breakdown beside it, the difference is what the app's own code costs, by stage.
 */
export function breakdownTable(b: Breakdown, limit: Breakdown | null = null): string {
  const us = (micros: number) => Math.round(micros).toLocaleString("en-US");
  const signed = (micros: number) => `${micros >= 0.5 ? "+" : ""}${us(micros)}`;
  const share = (micros: number) => `${((100 * micros) / b.profiledMicros).toFixed(1)} %`;
  const agreement = (x: Breakdown) => {
    const gap = (x.profiledMicros - x.mainThreadMicros) / x.mainThreadMicros;
    return `the sum is ${Math.abs(100 * gap).toFixed(1)} % ${gap >= 0 ? "above" : "below"} it${Math.abs(gap) > 0.1 ? " (over 10 %: see docs/performance.md)" : ""}`;
  };
  const limitOf = (stage: string) => limit?.stages.find((s) => s.stage === stage)?.micros ?? 0;
  const rows = b.stages.filter((s) => s.micros >= 0.5 || limitOf(s.stage) >= 0.5).sort((x, y) => y.micros - x.micros);
  const cells = (create: string, shareText: string, lim: string, difference: string) =>
    limit ? `${create} | ${shareText} | ${lim} | ${difference}` : `${create} | ${shareText}`;
  const total = (x: Breakdown) => x.mainThreadMicros + x.otherThreadsMicros;
  return [
    `| Stage | ${cells("µs per create", "Share of the profile", "The limit row, µs", "The app's own (difference)")} |`,
    `|---|${limit ? "---:|---:|---:|---:|" : "---:|---:|"}`,
    ...rows.map(
      (s) => `| ${s.stage} | ${cells(us(s.micros), share(s.micros), us(limitOf(s.stage)), signed(s.micros - limitOf(s.stage)))} |`,
    ),
    `| **Sum of the stages (profile, main thread)** | ${cells(`**${us(b.profiledMicros)}**`, "100 %", limit ? us(limit.profiledMicros) : "", limit ? signed(b.profiledMicros - limit.profiledMicros) : "")} |`,
    `| Main thread, counted by the kernel | ${cells(us(b.mainThreadMicros), agreement(b), limit ? `${us(limit.mainThreadMicros)} (${agreement(limit)})` : "", limit ? signed(b.mainThreadMicros - limit.mainThreadMicros) : "")} |`,
    `| Other threads (GC helpers, JIT compiler, libuv), counted by the kernel | ${cells(us(b.otherThreadsMicros), "", limit ? us(limit.otherThreadsMicros) : "", limit ? signed(b.otherThreadsMicros - limit.otherThreadsMicros) : "")} |`,
    `| **Server CPU per create, counted by the kernel** | ${cells(`**${us(total(b))}**`, "", limit ? us(total(limit)) : "", limit ? signed(total(b) - total(limit)) : "")} |`,
    "",
    `${b.creates.toLocaleString("en-US")} creates, ${b.samples.toLocaleString("en-US")} samples` +
      (limit
        ? `; the limit row: ${limit.creates.toLocaleString("en-US")} creates, ${limit.samples.toLocaleString("en-US")} samples.`
        : "."),
  ].join("\n");
}
