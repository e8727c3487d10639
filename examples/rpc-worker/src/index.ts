/**
 * A Worker that remembers and recalls through a service binding to the memory (wrangler.toml):
 * `env.MEMORY.recall(agentId, { query })` is a typed method call, no HTTP and no key. Each method
 * resolves with `{ ok: true, value }` or `{ ok: false, error: { code, status, message, details? } }`.
 *
 *   POST /agents/:agentId/remember   {"messages": [{"role": "user", "content": "…", "id": "m1"}]}
 *   GET  /agents/:agentId/recall?query=…
 */
import type { MemoryBinding } from "../../../sdk/src"; // in your project: from "@agent-memory/sdk"

interface Env {
  MEMORY: MemoryBinding;
}

const ROUTE = /^\/agents\/([^/]+)\/(remember|recall)$/;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const match = ROUTE.exec(url.pathname);
    if (!match) return Response.json({ error: "POST /agents/:agentId/remember or GET /agents/:agentId/recall?query=…" }, { status: 404 });
    const agentId = decodeURIComponent(match[1] ?? "");
    const result =
      match[2] === "remember" && request.method === "POST"
        ? await env.MEMORY.remember(agentId, await request.json(), {
            // Retrying a request with the same Idempotency-Key does not remember it twice.
            idempotencyKey: request.headers.get("Idempotency-Key") ?? undefined,
          })
        : await env.MEMORY.recall(agentId, { query: url.searchParams.get("query") ?? "", locale: "en" });
    if (!result.ok) {
      // A refusal is the API's own error (code, message, details): switch on result.error.code.
      return Response.json({ error: result.error }, { status: result.error.status });
    }
    return Response.json(result.value);
  },
} satisfies ExportedHandler<Env>;
