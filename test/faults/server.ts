/**
 * A local API that the fault suite can kill: `wrangler dev --local` (scripts/local-server.mjs)
 * serving a frozen bundle of the Worker (bench/driver/snapshot.ts), on a fixed port among
 * 8770–8779, with its own persist directory.
 *
 * `kill()` sends SIGKILL to the server's whole process group (wrangler's node process and the
 * workerd it runs: the child is started detached, so it leads its own group) and waits until no
 * process of the group is left; `restart()` starts it again on the same port and the same persist
 * directory, without applying the D1 migrations again. While the server is down, `whenUp()` is the
 * promise that clients wait on before they retry.
 *
 * Persist and build directories are deleted by `dispose()`, on exit, on errors and on Ctrl-C
 * (FAULTS_KEEP=1 keeps them for a post-mortem).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, startLocalServer } from "../../scripts/local-server.mjs";

/**
 * Ports of the fault suite (the benchmarks use 8790–8799, `npm run dev` 8787), moved by
 * TEST_PORT_OFFSET as the tests' are: on a shared machine another run's server took 8770 between a
 * kill and its restart ("Address already in use", the restart failed).
 */
const PORT_OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const FAULT_PORTS: readonly number[] = Array.from({ length: 10 }, (_, i) => 8770 + i + PORT_OFFSET);

const KEEP = process.env.FAULTS_KEEP === "1";

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function freePort(): Promise<number> {
  for (const port of FAULT_PORTS) if (await portIsFree(port)) return port;
  throw new Error(`no free port among ${FAULT_PORTS.join(", ")} for the fault suite's wrangler dev`);
}

/** True while any process of the group `pgid` exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Every server of this process, so that exit and signal handlers can kill them and delete their files.
const live = new Set<KillableServer>();
const dirs = new Set<string>();
let handlersInstalled = false;

function removeDir(dir: string): void {
  if (!KEEP && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}

/** A directory deleted at exit (and now, if it exists already): the frozen bundle. */
export function ownDir(dir: string): void {
  installHandlers();
  removeDir(dir);
  dirs.add(dir);
}

/** Deletes a directory given to ownDir. */
export function releaseDir(dir: string): void {
  removeDir(dir);
  dirs.delete(dir);
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on("exit", () => {
    for (const server of live) server.disposeNow();
    for (const dir of dirs) removeDir(dir);
  });
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: killing the fault suite's servers\n`);
      process.exit(code);
    });
  }
}

export class KillableServer {
  readonly url: string;
  readonly persistDir: string;
  /** Incremented by every kill: a request sent in an earlier epoch may have lost its answer. */
  epoch = 0;
  /** The wall time of each restart (ms, until /v1/health answered). */
  readonly restarts: number[] = [];
  /** killedAt[e]: when the kill that ended epoch e was sent (Date.now(), the server's clock too). */
  readonly killedAt: number[] = [];
  private child: ChildProcess | undefined;
  private logs: string[] = [];
  private output: (() => string) | undefined;
  private up: Promise<void>;
  private markUp: () => void = () => {};

  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly config: string,
    /** Overrides of the configuration's vars (`wrangler dev --var`), kept across restarts. */
    private readonly vars: Readonly<Record<string, string>> = {},
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.persistDir = path.join(ROOT, ".wrangler", `faults-${name}-${process.pid}`);
    this.up = new Promise((resolve) => (this.markUp = resolve));
  }

  /** Starts a fresh server (fresh persist directory, migrations applied) serving `config`. */
  static async start(name: string, config: string, vars: Readonly<Record<string, string>> = {}): Promise<KillableServer> {
    installHandlers();
    const server = new KillableServer(name, await freePort(), config, vars);
    live.add(server);
    server.removeFiles();
    await server.launch(true);
    return server;
  }

  /** Resolves when the server is up (at once while it runs). */
  whenUp(): Promise<void> {
    return this.up;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  private async launch(migrate: boolean): Promise<void> {
    const extraArgs = Object.entries(this.vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
    const server = await startLocalServer({
      port: this.port,
      persistTo: this.persistDir,
      quiet: true,
      config: this.config,
      migrate,
      extraArgs,
    });
    this.child = server.child;
    this.output = server.output;
    this.markUp();
  }

  /** SIGKILL to the whole process group; resolves once none of its processes is left. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child?.pid) throw new Error(`${this.name}: not running`);
    this.killedAt[this.epoch] = Date.now();
    this.epoch += 1;
    this.up = new Promise((resolve) => (this.markUp = resolve));
    this.child = undefined;
    this.saveOutput();
    process.kill(-child.pid, "SIGKILL");
    const deadline = Date.now() + 10_000;
    while (groupAlive(child.pid)) {
      if (Date.now() > deadline) throw new Error(`${this.name}: process group ${child.pid} still alive 10 s after SIGKILL`);
      await sleep(20);
    }
  }

  /** Starts the server again on the same port and persist directory. */
  async restart(): Promise<void> {
    if (this.child) throw new Error(`${this.name}: restart while running`);
    const started = performance.now();
    await this.launch(false);
    this.restarts.push(performance.now() - started);
  }

  /** Output of wrangler dev, every run of it so far. */
  allOutput(): string {
    return [...this.logs, this.output?.() ?? ""].join("\n--- restart ---\n");
  }

  private saveOutput(): void {
    if (this.output) this.logs.push(this.output());
    this.output = undefined;
  }

  /** Writes wrangler's output to a file in the temp directory; returns its path. */
  writeLog(): string {
    const file = path.join(tmpdir(), `faults-${this.name}-${process.pid}-wrangler.log`);
    writeFileSync(file, this.allOutput());
    return file;
  }

  private removeFiles(): void {
    removeDir(this.persistDir);
  }

  /** Synchronous: kill the group, delete the files (exit handler). */
  disposeNow(): void {
    const pid = this.child?.pid;
    this.child = undefined;
    if (pid && groupAlive(pid)) process.kill(-pid, "SIGKILL");
    this.removeFiles();
    live.delete(this);
  }

  /** Kills the server (if running), waits for its processes to go, deletes its files. */
  async dispose(): Promise<void> {
    const pid = this.child?.pid;
    this.child = undefined;
    if (pid) {
      process.kill(-pid, "SIGKILL");
      const deadline = Date.now() + 10_000;
      while (groupAlive(pid) && Date.now() < deadline) await sleep(20);
    }
    this.removeFiles();
    live.delete(this);
  }
}
