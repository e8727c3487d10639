/**
 * Where and how a run was made, written beside every result: the exact command, the date, the
 * machine (CPU model, cores, memory, Node, OS) and the git commit ("+dirty" when the working tree
 * has changes, since then the commit alone does not say what code ran).
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { ROOT } from "../../scripts/local-server.mjs";

export interface RunInfo {
  command: string;
  date: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; os: string };
  commit: string;
}

function git(args: string[]): string | null {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

export function gitCommit(): string {
  const head = git(["rev-parse", "--short", "HEAD"]);
  if (head === null) return "unknown";
  const dirty = git(["status", "--porcelain"]);
  return dirty ? `${head}+dirty` : head;
}

/** The command as typed: `npm run <script> -- <args>` when run through npm, else the tsx call. */
export function commandLine(script: string, entry: string): string {
  const args = process.argv.slice(2).map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`));
  if (process.env.npm_lifecycle_event === script) return ["npm run", script, ...(args.length ? ["--", ...args] : [])].join(" ");
  return ["npx tsx", entry, ...args].join(" ");
}

export function runInfo(script: string, entry: string): RunInfo {
  const cpus = os.cpus();
  return {
    command: commandLine(script, entry),
    date: new Date().toISOString(),
    machine: {
      cpu: cpus[0]?.model.trim() ?? "unknown",
      cores: cpus.length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
    },
    commit: gitCommit(),
  };
}

/** The run as Markdown lines for docs/BENCHMARKS.md. */
export function runInfoMarkdown(info: RunInfo, wallMs: number): string {
  const m = info.machine;
  return [
    `- Command: \`${info.command}\``,
    `- Date: ${info.date}`,
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}`,
    `- Commit: \`${info.commit}\``,
    `- Wall time: ${(wallMs / 1000).toFixed(0)} s`,
  ].join("\n");
}
