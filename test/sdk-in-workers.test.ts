/**
 * The SDK runs in a Worker (no Node API): a client whose `fetch` is the Worker's own (SELF.fetch,
 * as a service binding would be) remembers, waits and recalls; a typed error crosses as its class.
 */
import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";
import { MemoryClient, NotFoundError } from "../sdk/src";
import { DEV_KEY, freshAgent } from "./helpers";

it("remembers, waits for the task, recalls and refuses with typed errors, inside workerd", async () => {
  const memory = new MemoryClient({ baseUrl: "http://localhost", apiKey: DEV_KEY, fetch: (request) => SELF.fetch(request) });
  const agent = memory.agent(freshAgent("sdk-worker"));
  const { task_id } = await agent.remember({ messages: [{ role: "user", content: "Quinn's bakery opens at six.", id: "w1" }] });
  expect((await agent.waitForTask(task_id)).status).toBe("done");
  expect((await agent.recall({ query: "bakery" })).text).toContain("bakery");
  await expect(agent.getMemoryNode({ node_id: 424_242 })).rejects.toBeInstanceOf(NotFoundError);
  const tool = await agent.handleToolCall({ name: "get_stats", arguments: "{}" });
  expect(tool.isError).toBe(false);
  expect((tool.result as { nodes: { total: number } }).nodes.total).toBeGreaterThan(0);
});
