/**
 * What the browser tests share: a local API server of their own (wrangler dev on its own port and
 * a fresh state folder), Debian's Chromium driven by playwright-core (headless, no network
 * beyond localhost), a log of every request the page makes, and API calls to fill agents.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page, type Request } from "playwright-core";
import { startLocalServer } from "../../../scripts/local-server.mjs";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { buildWeb } from "../../build.mjs";
import { summarise } from "./png";

export const DEV_KEY = "dev-key-local-only";
/** Added to every fixed test port, so that two checkouts on one machine can run their tests at once. */
export const TEST_PORT_OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Test screenshots (gitignored). */
export const ARTIFACTS = path.resolve(import.meta.dirname, "..", "..", "test-artifacts");

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

export interface Server {
  url: string;
  stop(): void;
}

/** Builds the page and starts the Worker with it on `port`, on an empty state folder. */
export async function startServer(port: number): Promise<Server> {
  port += TEST_PORT_OFFSET;
  await buildWeb();
  const persistTo = mkdtempSync(path.join(os.tmpdir(), "memory-web-state-"));
  const server = await startLocalServer({ port, persistTo, quiet: true });
  return {
    url: server.url,
    stop: () => {
      server.stop();
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile; anything not on 127.0.0.1 is refused and recorded. */
export async function launchBrowser(log: RequestLog, viewport = { width: 1280, height: 800 }): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with "apt-get install -y chromium" (or set CHROMIUM_PATH)`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(path.join(os.tmpdir(), "memory-web-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    serviceWorkers: "block",
  });
  context.on("request", (r) => log.record(r));
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1" || url.protocol === "data:" || url.protocol === "blob:") return route.continue();
    log.refused.push(route.request().url());
    return route.abort("blockedbyclient");
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface LoggedRequest {
  url: string;
  method: string;
  authorization: string | undefined;
}

export class RequestLog {
  readonly requests: LoggedRequest[] = [];
  readonly refused: string[] = [];

  record(r: Request): void {
    this.requests.push({ url: r.url(), method: r.method(), authorization: r.headers()["authorization"] });
  }

  /** Forgets what was recorded (each test checks its own requests). */
  clear(): void {
    this.requests.length = 0;
    this.refused.length = 0;
  }

  /** Every request went to `origin`; the key only in an Authorization header of /v1/ requests, never in a URL. */
  problems(origin: string, key: string): string[] {
    const problems: string[] = this.refused.map((u) => `refused third-party request: ${u}`);
    for (const r of this.requests) {
      const url = new URL(r.url);
      if (url.origin !== origin) problems.push(`request outside the page's origin: ${r.method} ${r.url}`);
      if (r.url.includes(key) || decodeURIComponent(r.url).includes(key)) problems.push(`the key is in a URL: ${r.url}`);
      if (r.authorization !== undefined && !url.pathname.startsWith("/v1/")) problems.push(`credentials sent to a non-API path: ${r.url}`);
    }
    return problems;
  }
}

export async function api<T>(base: string, method: string, pathname: string, body?: unknown, key = DEV_KEY): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}${pathname}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
  const type = res.headers.get("content-type") ?? "";
  return (type.includes("application/json") ? JSON.parse(text) : text) as T;
}

/**
 * Remembers each submission (one remember call each) and waits until the agent is idle. Message ids
 * are `<idPrefix>-1`, `-2`…: a second call for the same agent needs another prefix, or the agent
 * takes its messages for ones it holds already and stores nothing.
 */
export async function fillAgent(
  base: string,
  agent: string,
  submissions: readonly (readonly string[])[],
  config?: Record<string, unknown>,
  idPrefix = "msg",
  /** Given to every submission: a session_id, metadata (attributes only: the network is the same). */
  scope: Record<string, unknown> = {},
) {
  if (config) await api(base, "PUT", `/v1/agents/${agent}/config`, config);
  let id = 0;
  for (const contents of submissions) {
    const messages = contents.map((content) => ({ role: "user", content, id: `${idPrefix}-${++id}` }));
    const { task_id } = await api<{ task_id: string }>(base, "POST", `/v1/agents/${agent}/remember`, { messages, ...scope });
    const task = await api<{ status: string }>(base, "GET", `/v1/agents/${agent}/tasks/${task_id}?wait_ms=30000`);
    if (task.status !== "done") throw new Error(`remember for ${agent} ended ${task.status}`);
  }
  await api(base, "GET", `/v1/agents/${agent}/stats?wait_ms=30000`);
}

/** Signs in through the form and opens an agent from the list; resolves when its neighbourhood is complete. */
export async function signInAndOpen(page: Page, base: string, agent: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.fill("#api-key", DEV_KEY);
  await page.press("#api-key", "Enter");
  await page.click(`#agent-list button[data-agent-id="${agent}"]`);
  await waitForStatus(page, /complete \d+ ms/);
}

export async function waitForStatus(page: Page, pattern: RegExp, timeout = 30_000): Promise<string> {
  const locator = page.locator("#graph-status");
  await locator.filter({ hasText: pattern }).waitFor({ timeout });
  return (await locator.textContent()) ?? "";
}

export function artifact(name: string): string {
  return path.join(ARTIFACTS, name);
}

export interface BrowserSuite {
  /** The Worker started for the file (set once its beforeAll has run). */
  readonly url: string;
  /** Every request the suite's pages made in the current test. */
  readonly log: RequestLog;
  /**
   * The current test's console errors and failed requests (an answer of 400 or more, or no answer),
   * in order. Not checked after every test: some tests provoke errors on purpose.
   */
  readonly failures: string[];
  /** A new page, closed after the test; its uncaught errors fail the test. */
  newPage(): Promise<Page>;
  /** Saves a screenshot as a test artefact and checks it is not blank. */
  screenshot(page: Page, name: string): Promise<Buffer>;
}

/**
 * A browser test file's life cycle: one Worker and one Chromium for the file, `fill` run once
 * against the Worker, and after every test its pages closed, its request log checked (own origin
 * only, the key never in a URL) and its page errors required to be none.
 */
export function browserSuite(port: number, fill: (url: string) => Promise<void>): BrowserSuite {
  let server: Server | undefined;
  let browser: Browser | undefined;
  const log = new RequestLog();
  const pages: Page[] = [];
  const pageErrors: string[] = [];
  const failures: string[] = [];
  beforeAll(async () => {
    server = await startServer(port);
    browser = await launchBrowser(log);
    await fill(server.url);
  }, 180_000);
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    const problems = log.problems(suite.url, DEV_KEY);
    log.clear();
    failures.length = 0;
    expect(problems).toEqual([]);
    expect(pageErrors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    server?.stop();
  });
  const suite: BrowserSuite = {
    log,
    failures,
    get url() {
      if (!server) throw new Error("the suite's server has not started");
      return server.url;
    },
    async newPage() {
      if (!browser) throw new Error("the suite's browser has not started");
      const page = await browser.context.newPage();
      pages.push(page);
      page.on("pageerror", (err) => pageErrors.push(err.message));
      page.on("console", (message) => {
        if (message.type() === "error") failures.push(`console error: ${message.text()}`);
      });
      page.on("response", (response) => {
        if (response.status() >= 400) failures.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
      });
      page.on("requestfailed", (request) =>
        failures.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`),
      );
      return page;
    },
    async screenshot(page, name) {
      const png = await page.screenshot({ path: artifact(name) });
      const summary = summarise(png);
      expect(summary.distinctColours, `${name} has too few colours to be a page`).toBeGreaterThan(32);
      expect(summary.nonBackground, `${name} is mostly one colour`).toBeGreaterThan(0.05);
      return png;
    },
  };
  return suite;
}
