/**
 * The Worker: the HTTP API, the cron safety net, and the agent Durable Object class.
 */
import { createApp } from "./app";
import { runScheduled } from "./scheduled";

export { MemoryAgent } from "./agent/memory-agent";

const app = createApp();

export default {
  fetch: app.fetch,
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
