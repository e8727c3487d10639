/**
 * The Worker: the HTTP API, the cron safety net, the agent Durable Object class and the RPC entrypoint.
 */
import { createOperatorApp, isOperatorPath } from "./admin/operator-app";
import { benchHookResponse } from "./agent/bench-hooks";
import { createApp } from "./app";
import { DEV_TENANT } from "./http/principal";
import { withMcpConnector } from "./oauth/connector";
import { runScheduled } from "./scheduled";

export { MemoryAgent } from "./agent/memory-agent";
// The account's fair share of text generation between tenants (src/models/rate).
export { ModelShare } from "./models/rate/model-share-object";
// Workers RPC for Workers of the same account, through a service binding (src/rpc).
export { MemoryEntrypoint } from "./rpc/memory-entrypoint";

const api = withMcpConnector(createApp());
const operator = createOperatorApp();

export default {
  // The API, and OAuth for MCP clients that connect without a key (src/oauth); the operator's
  // API under /v1/admin/ (src/admin), which does not exist unless OPERATOR_SECRET is set; the
  // benchmark's hooks only where BENCH_HOOKS is set (src/agent/bench-hooks.ts).
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    benchHookResponse(request, env, DEV_TENANT) ??
    (isOperatorPath(new URL(request.url).pathname) ? operator.fetch(request, env, ctx) : api(request, env, ctx)),
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
