/**
 * Issue 36's story, through REST, MCP and the AI SDK (docs/design.md, "Scoping"): one user, three
 * sessions (written by a REST remember, an MCP tool call and a model wrapped by `withMemory`);
 * recall and context across all of them and within one; the second session deleted (forgotten over
 * MCP, or purged over REST); the other two as they were (their memories' texts and their search
 * results within their session); nothing of the second found by search, recall, context, export,
 * the vector index or the full-text index, and with the purge no task result or Idempotency-Key
 * replay holding it.
 */
import { runInDurableObject, SELF } from "cloudflare:test";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { generateText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { withMemory } from "../ai-sdk/src";
import { MemoryClient, type RememberOutput } from "../sdk/src";
import { FTS_AGENT_STRIDE } from "../src/storage/fts-repo";
import { agentRows, call, DEV_KEY, freshAgent, json, stubOf, waitTask } from "./helpers";
import { everySurface, occurrences } from "./purge-surfaces";

interface Item {
  node_id: number;
  kind: string;
  content: string;
  session_id: string | null;
}

const S2_WORDS = ["Oaxaca", "passport", "mezcal"];
const S2_PHRASES = ["trip to Oaxaca", "taste mezcal", "passport for the", "expires in April"];
const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const answer = (text: string) => ({
  content: [{ type: "text" as const, text }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage: USAGE,
  warnings: [],
});
const systemOf = (options: LanguageModelV4CallOptions | undefined) =>
  options?.prompt[0]?.role === "system" ? options.prompt[0].content : "";

/** One JSON-RPC tools/call on the agent's MCP endpoint: the tool's structured answer. */
async function mcpTool(agent: string, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await call(`/v1/agents/${agent}/mcp`, {
    body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    headers: { Accept: "application/json, text/event-stream", ...headers },
  });
  expect(res.status).toBe(200);
  const out = await json<{ result?: { isError?: boolean; structuredContent?: Record<string, unknown> } }>(res);
  expect(out.result?.isError, JSON.stringify(out)).toBeUndefined();
  return out.result?.structuredContent ?? {};
}

async function list(agent: string, sessionId: string): Promise<[number, string][]> {
  const filter = encodeURIComponent(JSON.stringify({ session_ids: [sessionId] }));
  const res = await call(`/v1/agents/${agent}/memories?limit=200&filter=${filter}`);
  expect(res.status).toBe(200);
  return (await json<{ items: Item[] }>(res)).items.map((i) => [i.node_id, i.content]);
}

async function searchIn(agent: string, sessionId: string, query: string): Promise<number[]> {
  const res = await call(`/v1/agents/${agent}/search`, { body: { query, top_k: 50, session_ids: [sessionId] } });
  expect(res.status).toBe(200);
  return (await json<{ items: Item[] }>(res)).items.map((i) => i.node_id);
}

async function recallSessions(agent: string, body: Record<string, unknown>): Promise<Set<string | null>> {
  const res = await call(`/v1/agents/${agent}/recall`, { body: { limit: 50, format: "json", ...body } });
  expect(res.status).toBe(200);
  const items = (await json<{ items: (Item & { type: string })[] }>(res)).items.filter((i) => i.type === "memory");
  return new Set(items.map((i) => i.session_id));
}

async function contextText(agent: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(`/v1/agents/${agent}/context`, { body: { budget_tokens: 4000, locale: "en", ...body } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The user's three chats: s1 over REST, s2 over MCP (and a keyed REST write), s3 through withMemory. */
async function threeChats(agent: string, client: MemoryClient) {
  const s1 = await call(`/v1/agents/${agent}/remember`, {
    body: {
      session_id: "s1",
      messages: [
        { role: "user", name: "Dana", content: "I planted tomatoes and basil in the garden beds.", id: "g1" },
        { role: "user", name: "Dana", content: "The garden needs watering every morning in July.", id: "g2" },
      ],
    },
  });
  const viaMcp = await mcpTool(agent, "remember", {
    session_id: "s2",
    messages: [{ role: "user", name: "Dana", content: "I am planning a trip to Oaxaca to taste mezcal in March.", id: "t1" }],
  });
  const keyed = await call(`/v1/agents/${agent}/remember`, {
    body: {
      session_id: "s2",
      messages: [{ role: "user", name: "Dana", content: "My passport for the Oaxaca trip expires in April.", id: "t2" }],
    },
    headers: { "Idempotency-Key": "story-s2" },
  });
  const tasks = {
    s1: (await json<{ task_id: string }>(s1)).task_id,
    s2: [String(viaMcp.task_id), (await json<{ task_id: string }>(keyed)).task_id],
  };
  for (const id of [tasks.s1, ...tasks.s2]) await waitTask(agent, id);

  // The third chat is a model's: its context comes from every session, its exchange goes into s3.
  const writes: Promise<RememberOutput | undefined>[] = [];
  const mock = new MockLanguageModelV4({ doGenerate: answer("Noted: cello with Ines on Thursdays.") });
  const model = withMemory(mock, {
    agentId: agent,
    client,
    sessionId: "s3",
    context: { locale: "en", budget_tokens: 4000 },
    waitUntil: (p) => writes.push(p),
  });
  await generateText({ model, prompt: "I started cello lessons with Ines on Thursdays. How are my garden and my trip?" });
  const across = systemOf(mock.doGenerateCalls[0]);
  expect(across).toMatch(/garden/);
  expect(across).toMatch(/Oaxaca/);
  expect(writes).toHaveLength(1);
  const written = await writes[0];
  await waitTask(agent, written!.task_id);
  return { tasks, s3Task: written!.task_id };
}

describe.each([
  { purge: false, how: "forgotten over MCP" },
  { purge: true, how: "purged over REST" },
])("one user, three sessions, the second $how", ({ purge }) => {
  it("recall and context across and within; the others intact; nothing of the second left", async () => {
    const agent = freshAgent("story");
    const client = new MemoryClient({ baseUrl: "http://localhost", apiKey: DEV_KEY, fetch: (request) => SELF.fetch(request) });
    const { tasks } = await threeChats(agent, client);

    // Recall across every session, and within one (REST and MCP).
    expect(await recallSessions(agent, { query: "garden Oaxaca trip cello lessons" })).toEqual(new Set(["s1", "s2", "s3"]));
    expect(await recallSessions(agent, { query: "garden Oaxaca trip cello lessons", session_ids: ["s2"] })).toEqual(new Set(["s2"]));
    const viaMcp = await mcpTool(agent, "recall", { query: "garden Oaxaca trip cello lessons", session_ids: ["s3"] });
    const mcpSessions = (viaMcp.items as (Item & { type: string })[]).filter((i) => i.type === "memory").map((i) => i.session_id);
    expect(mcpSessions.length).toBeGreaterThan(0);
    expect(new Set(mcpSessions)).toEqual(new Set(["s3"]));
    // Context across, and within one (REST, MCP and the wrapped model told to stay in its session).
    const all = await contextText(agent, { query: "garden tomatoes Oaxaca trip cello lessons" });
    for (const word of ["tomatoes", "Oaxaca", "cello"]) expect(all).toContain(word);
    const onlyS1 = await contextText(agent, { query: "garden tomatoes Oaxaca trip cello lessons", session_ids: ["s1"] });
    expect(onlyS1).toContain("tomatoes");
    expect(onlyS1).not.toMatch(/Oaxaca|cello/);
    const mcpContext = String(
      (await mcpTool(agent, "get_context", { query: "garden Oaxaca trip cello", session_ids: ["s2"], locale: "en" })).text,
    );
    expect(mcpContext).toContain("Oaxaca");
    expect(mcpContext).not.toMatch(/tomatoes|cello/);
    const within = new MockLanguageModelV4({ doGenerate: answer("On Thursdays.") });
    await generateText({
      model: withMemory(within, {
        agentId: agent,
        client,
        sessionId: "s3",
        remember: false,
        context: { locale: "en", session_ids: ["s3"] },
      }),
      prompt: "When are my cello lessons, and how is the garden, and the Oaxaca trip?",
    });
    expect(systemOf(within.doGenerateCalls[0])).toContain("cello");
    expect(systemOf(within.doGenerateCalls[0])).not.toMatch(/tomatoes|Oaxaca/);

    // Queued work done (episode summaries, compression) before the snapshot, and again after the deletion.
    const idle = async () => expect((await call(`/v1/agents/${agent}/stats?wait_ms=30000`)).status).toBe(200);
    await idle();
    const before = {
      s1: await list(agent, "s1"),
      s3: await list(agent, "s3"),
      s1Search: await searchIn(agent, "s1", "garden tomatoes watering"),
      s3Search: await searchIn(agent, "s3", "cello lessons Thursdays"),
    };
    const s2Ids = (await list(agent, "s2")).map(([id]) => id);
    expect(before.s1.length).toBeGreaterThan(0);
    expect(before.s3.length).toBeGreaterThan(0);
    expect(before.s1Search.length).toBeGreaterThan(0);
    expect(before.s3Search.length).toBeGreaterThan(0);
    expect(s2Ids.length).toBeGreaterThan(0);

    if (purge) {
      const res = await call(`/v1/agents/${agent}/sessions/s2?purge=true`, { method: "DELETE" });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await json(res)).toMatchObject({ deleted: true, purged: true });
    } else {
      expect(await mcpTool(agent, "delete_session", { session_id: "s2" })).toMatchObject({ deleted: true, purged: false });
    }

    await idle();
    // The other two: the same memories with the same texts, the same search results in their session.
    expect(await list(agent, "s1")).toEqual(before.s1);
    expect(await list(agent, "s3")).toEqual(before.s3);
    expect(await searchIn(agent, "s1", "garden tomatoes watering")).toEqual(before.s1Search);
    expect(await searchIn(agent, "s3", "cello lessons Thursdays")).toEqual(before.s3Search);
    expect(await list(agent, "s2")).toEqual([]);

    // Nothing of s2 on a read surface (search, recall, context, export, tools, MCP, the SDK)…
    const surfaces = await everySurface(agent, {
      words: [...S2_WORDS, "trip", "March", "April", "garden", "cello"],
      nodeIds: s2Ids,
      ...(purge
        ? {
            taskIds: tasks.s2,
            replays: [
              {
                path: `/v1/agents/${agent}/remember`,
                method: "POST",
                key: "story-s2",
                body: {
                  session_id: "s2",
                  messages: [{ role: "user", name: "Dana", content: "My passport for the Oaxaca trip expires in April.", id: "t2" }],
                },
              },
            ],
          }
        : {}),
    });
    // Forgotten, its memories' texts are gone and its entities stay (an entity is every session's:
    // "Oaxaca" as a name, without the sentence); purged, every word of it is gone.
    if (purge) expect(occurrences(surfaces, S2_WORDS)).toEqual([]);
    else expect(occurrences(surfaces, S2_PHRASES)).toEqual([]);
    expect(surfaces).toMatch(/tomatoes/); // the surfaces were read: s1 is there
    // …nor in the model's context, across every session.
    const after = new MockLanguageModelV4({ doGenerate: answer("Fine.") });
    await generateText({
      model: withMemory(after, { agentId: agent, client, remember: false, context: { locale: "en", budget_tokens: 4000 } }),
      prompt: "How are my garden, my cello lessons and my Oaxaca trip with the passport and mezcal?",
    });
    expect(systemOf(after.doGenerateCalls[0])).toContain("tomatoes");
    expect(occurrences(systemOf(after.doGenerateCalls[0]), purge ? S2_WORDS : S2_PHRASES)).toEqual([]);

    // …nor in the vector index or the full-text index.
    const vectors = await runInDurableObject(stubOf(agent), (_instance, ctx) =>
      ctx.storage.sql
        .exec<{ node_id: number }>("SELECT node_id FROM vectors")
        .toArray()
        .map((r) => r.node_id),
    );
    expect(vectors.length).toBeGreaterThan(0);
    for (const id of s2Ids) expect(vectors).not.toContain(id);
    const { db, key } = await agentRows(agent);
    for (const id of s2Ids) {
      expect(
        await db
          .prepare("SELECT count(*) AS n FROM nodes_fts WHERE rowid = ?")
          .bind(key * FTS_AGENT_STRIDE + id)
          .first("n"),
      ).toBe(0);
    }
    const s1Ids = before.s1.map(([id]) => id);
    const kept = await db
      .prepare(`SELECT count(*) AS n FROM nodes_fts WHERE rowid IN (${s1Ids.map(() => "?").join(",")})`)
      .bind(...s1Ids.map((id) => key * FTS_AGENT_STRIDE + id))
      .first("n");
    expect(kept).toBeGreaterThan(0);
    if (purge) {
      // Not even its entities' rows (a forgotten session's entities stay, as names: above).
      const fts = await db
        .prepare("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH ? AND rowid BETWEEN ? AND ?")
        .bind("oaxaca OR passport OR mezcal", key * FTS_AGENT_STRIDE, key * FTS_AGENT_STRIDE + FTS_AGENT_STRIDE - 1)
        .first("n");
      expect(fts).toBe(0);
      const rows = await db.prepare("SELECT count(*) AS n FROM nodes WHERE agent = ? AND content LIKE '%Oaxaca%'").bind(key).first("n");
      expect(rows).toBe(0);
    }
  });
});
