/**
 * The SDK (sdk/) works in a browser: bundled by esbuild as the application's own bundler would,
 * loaded into the page the Worker serves (same origin: the API grants no cross-origin access), it
 * remembers, waits for the task, recalls and answers a wrong tool call as a tool error, with the
 * browser's own fetch and AbortController.
 */
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEV_KEY, launchBrowser, RequestLog, startServer, type Browser, type Server } from "./harness";

const PORT = 8784;
let server: Server;
let browser: Browser;
const log = new RequestLog();

beforeAll(async () => {
  server = await startServer(PORT);
  browser = await launchBrowser(log);
});

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

it("remembers, waits, recalls and handles a tool call from a page, with the key only in the Authorization header", async () => {
  const bundle = await build({
    entryPoints: [path.resolve(import.meta.dirname, "..", "..", "..", "sdk", "src", "index.ts")],
    bundle: true,
    format: "iife",
    globalName: "MemorySdk",
    platform: "browser",
    target: "es2022",
    footer: { js: "globalThis.MemorySdk = MemorySdk;" },
    write: false,
  });
  const code = bundle.outputFiles[0]?.text ?? "";
  expect(code.length).toBeGreaterThan(1000);
  const page = await browser.context.newPage();
  await page.goto(server.url);
  const outcome = await page.evaluate(
    async ({ code, key }) => {
      // The bundle defines MemorySdk, as a <script> of the application's would.
      (0, eval)(code);
      const sdk = (globalThis as unknown as { MemorySdk: typeof import("../../../sdk/src") }).MemorySdk;
      const agent = new sdk.MemoryClient({ baseUrl: location.origin, apiKey: key }).agent(`browser-${Date.now()}`);
      const { task_id } = await agent.remember({ messages: [{ role: "user", content: "浏览器里也能记住：小周养了一只柯基。", id: "b1" }] });
      const task = await agent.waitForTask(task_id);
      const recall = await agent.recall({ query: "柯基" });
      const wrong = await agent.handleToolCall({ name: "recall", arguments: { depth: 99 } });
      let aborted = "";
      const controller = new AbortController();
      controller.abort(new Error("stopped"));
      await agent.getFocus({ signal: controller.signal }).catch((e: Error) => (aborted = e.message));
      return { status: task.status, text: recall.text, wrong: wrong.isError, aborted, tools: agent.tools("anthropic").length };
    },
    { code, key: DEV_KEY },
  );
  expect(outcome.status).toBe("done");
  expect(outcome.text).toContain("柯基");
  expect(outcome.wrong).toBe(true);
  expect(outcome.aborted).toBe("stopped");
  expect(outcome.tools).toBeGreaterThan(10);
  expect(log.problems(server.url, DEV_KEY)).toEqual([]);
  await page.close();
});
