/**
 * The local API the benchmark drives: `wrangler dev --local` (scripts/local-server.mjs) on a free
 * port with a fresh persist directory, stopped and deleted on exit, on errors and on Ctrl-C.
 *
 * The Worker is served from a bundle frozen at the start (snapshot.ts), not from src/ directly.
 * A fresh directory per run keeps runs independent (no agent left over from an earlier run) and
 * lets the speed bench measure the D1 files from empty. Ports 8790–8799 (or BENCH_PORTS): other
 * engineers' `wrangler dev` uses 8787, and two benchmark runs at once pick different ports.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import path from "node:path";
import { ROOT, startLocalServer } from "../../scripts/local-server.mjs";
import { buildSnapshot } from "./snapshot";

export const BENCH_PORTS: readonly number[] = portsFromEnv(process.env.BENCH_PORTS) ?? [
  8790, 8791, 8792, 8793, 8794, 8795, 8796, 8797, 8798, 8799,
];

/**
 * BENCH_PORTS="8810,8811": the ports to use instead, for a machine where others run benchmarks too
 * (a server that lost the race for a port would leave the run talking to someone else's).
 */
function portsFromEnv(raw: string | undefined): number[] | undefined {
  const ports = (raw ?? "")
    .split(",")
    .map((p) => Number.parseInt(p.trim(), 10))
    .filter((p) => Number.isInteger(p) && p > 0 && p < 65_536);
  return ports.length > 0 ? ports : undefined;
}

export interface BenchServer {
  url: string;
  /** The persist directory (D1 and Durable Object files live under `v3/`). */
  persistDir: string;
  /** Stops the server and deletes its directory; safe to call twice. */
  stop: () => Promise<void>;
  /** What wrangler printed, for error reports. */
  output: () => string;
  /** wrangler's process id, which leads the process group of its workerd (process-cpu.ts). */
  pid: number | undefined;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function freePort(): Promise<number> {
  for (const port of BENCH_PORTS) if (await portIsFree(port)) return port;
  throw new Error(`no free port among ${BENCH_PORTS.join(", ")} for the benchmark's wrangler dev`);
}

// Every server started by this process, so that exit and signal handlers can stop them.
const running = new Set<() => void>();
let handlersInstalled = false;

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // "exit" handlers must be synchronous: kill the process group and delete the directory now.
  process.on("exit", () => {
    for (const stopNow of running) stopNow();
  });
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping the benchmark's wrangler dev\n`);
      process.exit(code);
    });
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Starts a local API for the benchmark `name` (used in the directory name): on a fresh persist
 * directory, or with `persistDir` on that one as it stands (a restart: a fresh isolate over the
 * same storage and the same frozen build, `<persistDir>-build`, made by the first start; the caller
 * deletes both with removeKeptServerDirs when done, stop() leaves them).
 */
export async function startBenchServer(
  name: string,
  extraArgs: readonly string[] = [],
  options: { persistDir?: string } = {},
): Promise<BenchServer> {
  installHandlers();
  const kept = options.persistDir;
  const persistDir = kept ?? path.join(ROOT, ".wrangler", `bench-${name}-${process.pid}`);
  // The frozen build lives beside, not inside, the persist directory: wrangler reloads the Worker
  // when files appear next to its configuration, and the storage creates files all the time.
  const buildDir = `${persistDir}-build`;
  const removeDir = (): void => {
    if (kept === undefined) for (const dir of [persistDir, buildDir]) if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  };
  const migrate = kept === undefined || !existsSync(kept);
  removeDir();
  const port = await freePort();
  let server: Awaited<ReturnType<typeof startLocalServer>>;
  try {
    const frozen = path.join(buildDir, "wrangler.bench.toml");
    const config = kept !== undefined && existsSync(frozen) ? frozen : buildSnapshot(buildDir);
    server = await startLocalServer({ port, persistTo: persistDir, quiet: true, config, extraArgs: [...extraArgs], migrate });
    // Another server took the port between the check and the start: what answered is not ours.
    if (server.output().includes("Address already in use")) {
      server.stop();
      throw new Error(`port ${port} was taken by another server while this one started; run again (or set BENCH_PORTS)`);
    }
  } catch (e) {
    removeDir();
    throw e;
  }
  const stopNow = (): void => {
    server.stop();
    removeDir();
  };
  running.add(stopNow);
  let stopped = false;
  return {
    url: server.url,
    persistDir,
    output: server.output,
    pid: server.child.pid,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      running.delete(stopNow);
      server.stop();
      // workerd may still be flushing its files: delete the directory once it is gone.
      await waitForExit(server.child, 5000);
      removeDir();
    },
  };
}

/** Deletes what servers started with `persistDir` left: the storage and the frozen build. */
export function removeKeptServerDirs(persistDir: string): void {
  for (const dir of [persistDir, `${persistDir}-build`]) if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}

/** An error with its causes (fetch's "fetch failed" says why only in `cause`). */
export function describeError(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause === undefined ? "" : `\ncaused by: ${describeError(e.cause)}`;
  return `${e.stack ?? e.message}${cause}`;
}

/** Runs `body` against a fresh server and always stops it, printing wrangler's output on failure. */
export async function withBenchServer<T>(
  name: string,
  body: (server: BenchServer) => Promise<T>,
  vars: Readonly<Record<string, string>> = {},
): Promise<T> {
  return withBenchServers(
    [name],
    ([server]) => {
      if (!server) throw new Error("no server started");
      return body(server);
    },
    vars,
  );
}

/**
 * As withBenchServer, with one fresh server per name (own port, own D1 and Durable Object files),
 * started one after the other so that no two pick the same free port; a name may come with more
 * arguments for its `wrangler dev` (e.g. `--var`).
 */
export async function withBenchServers<T>(
  names: readonly (string | { name: string; extraArgs: readonly string[] })[],
  body: (servers: BenchServer[]) => Promise<T>,
  vars: Readonly<Record<string, string>> = {},
): Promise<T> {
  const servers: { name: string; server: BenchServer }[] = [];
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  try {
    for (const entry of names) {
      const { name, extraArgs } = typeof entry === "string" ? { name: entry, extraArgs: [] } : entry;
      servers.push({ name, server: await startBenchServer(name, [...extraArgs, ...varArgs]) });
    }
    return await body(servers.map((s) => s.server));
  } catch (e) {
    for (const { name, server } of servers) {
      // The whole log goes to a file (it can be long); the end of it to stderr.
      const log = path.join(tmpdir(), `bench-${name}-${process.pid}-wrangler.log`);
      writeFileSync(log, server.output());
      const tail = server.output().split("\n").slice(-30).join("\n").trim();
      process.stderr.write(`\n--- ${name}: last lines of wrangler dev (whole log: ${log}) ---\n${tail}\n---\n`);
    }
    throw e;
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
  }
}
