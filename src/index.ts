/**
 * The Worker: the HTTP API, the cron safety net, the agent Durable Object class and the RPC entrypoint.
 */
import { createApp } from "./app";
import { withMcpConnector } from "./oauth/connector";
import { runScheduled } from "./scheduled";

export { MemoryAgent } from "./agent/memory-agent";
// Workers RPC for Workers of the same account, through a service binding (src/rpc).
export { MemoryEntrypoint } from "./rpc/memory-entrypoint";

const app = createApp();

export default {
  // The API, and OAuth for MCP clients that connect without a key (src/oauth).
  fetch: withMcpConnector(app),
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
