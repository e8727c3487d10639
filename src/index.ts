/**
 * The Worker: the HTTP API, the cron safety net, the agent Durable Object class and the RPC entrypoint.
 */
import { benchHookResponse } from "./agent/bench-hooks";
import { createApp } from "./app";
import { DEV_TENANT } from "./http/auth";
import { withMcpConnector } from "./oauth/connector";
import { runScheduled } from "./scheduled";

export { MemoryAgent } from "./agent/memory-agent";
// Workers RPC for Workers of the same account, through a service binding (src/rpc).
export { MemoryEntrypoint } from "./rpc/memory-entrypoint";

const app = createApp();
const api = withMcpConnector(app);

export default {
  // The API, and OAuth for MCP clients that connect without a key (src/oauth); the benchmark's
  // hooks only where BENCH_HOOKS is set (src/agent/bench-hooks.ts).
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => benchHookResponse(request, env, DEV_TENANT) ?? api(request, env, ctx),
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
