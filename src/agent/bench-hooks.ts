/**
 * The benchmark's hooks into an agent's object, served only when BENCH_HOOKS is "1" (the local
 * server of `npm run bench:speed`'s cold section; a deployment never sets it, and the hooks then
 * answer 404 like any path the API does not serve):
 *
 *   POST /__bench/agents/:agentId/evict   resets the object as an idle eviction does: the work it
 *                                         does once quiet (AgentNetworkAccess.settle: the copy of
 *                                         the network brought up to date) ends first, as it would
 *                                         in the minute the platform waits; then its memory (the
 *                                         graph, the caches) goes, its storage stays, and the next
 *                                         call constructs it afresh (DurableObjectState.abort);
 *   POST /__bench/agents/:agentId/usage   what its usage meter counted since the last ask
 *                                         (RequestUsage: D1 round trips and rows of the last call);
 *   POST /__bench/agents/:agentId/copy    its copy of the network (snapshot and journal) loaded
 *                                         afresh and compared with D1 (copy-check.ts; the fault suite).
 *
 * Only with the local development key, for its tenant; they sit outside the API (no route, no
 * OpenAPI entry), so nothing a client of a deployment sees changes.
 */
import type { AgentIdentity } from "../vocabulary/identity";
import { agentStub } from "./naming";
import { benchHooksOn, type BenchAction, type UsageEnv } from "./usage-meter";

const HOOK_PATH = /^\/__bench\/agents\/([^/]+)\/(evict|usage|copy)$/;

/** The hook's answer, or undefined when the request is not one (or the hooks are off). */
export function benchHookResponse(request: Request, env: Env & UsageEnv, devTenant: string): Promise<Response> | undefined {
  if (!benchHooksOn(env) || request.method !== "POST") return undefined;
  const match = HOOK_PATH.exec(new URL(request.url).pathname);
  const agentId = match?.[1];
  const action = match?.[2];
  if (agentId === undefined || (action !== "evict" && action !== "usage" && action !== "copy")) return undefined;
  if (!env.DEV_API_KEY || request.headers.get("Authorization") !== `Bearer ${env.DEV_API_KEY}`) {
    return Promise.resolve(new Response(null, { status: 401 }));
  }
  const identity: AgentIdentity = { tenantId: devTenant, agentId: decodeURIComponent(agentId) };
  return run(env, identity, action);
}

async function run(env: Env, identity: AgentIdentity, action: BenchAction): Promise<Response> {
  const stub = agentStub(env, identity);
  if (action !== "evict") return Response.json(await stub.benchHook(identity, action));
  try {
    await stub.benchHook(identity, "evict");
  } catch {
    // The reset ends the call that asked for it: that is the eviction.
    return new Response(null, { status: 204 });
  }
  // Answered: the object's hooks are off (its env lacks BENCH_HOOKS), nothing was reset.
  return new Response("the object was not reset", { status: 500 });
}
