/** The API client against a fake fetch: where requests go, what they carry, how answers are parsed. */
import { describe, expect, it } from "vitest";
import type { AgentList, Focus as FocusView, RecallResponse, Stats as StatsView } from "../../../sdk/src/generated/operations";
import { ApiClient, ApiError } from "../../src/api/client";
import { link, nodeView } from "./fixtures";

interface Sent {
  url: string;
  init: RequestInit;
}

function fakeFetch(answer: (url: string) => Response) {
  const sent: Sent[] = [];
  const fn = async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return answer(url);
  };
  return { sent, fn };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("ApiClient", () => {
  it("sends the key as a bearer header to relative /v1 URLs only, without credentials or referrer", async () => {
    const page: AgentList = { agents: [{ agent_id: "a b", created_at: 1, last_active_at: 2 }], next_cursor: "YWI" };
    const focus: FocusView = { focus_limit: 5, focus: [] };
    const { sent, fn } = fakeFetch((url) => json(url.endsWith("/focus") ? focus : page));
    const client = new ApiClient("secret-key", fn);
    expect(await client.listAgents("YWI", 20)).toEqual(page);
    const [request] = sent;
    expect(request?.url).toBe("/v1/agents?limit=20&cursor=YWI");
    expect(request?.init.headers).toMatchObject({ Authorization: "Bearer secret-key" });
    expect(request?.init.credentials).toBe("omit");
    expect(request?.init.referrerPolicy).toBe("no-referrer");
    await client.focus("a b/../x");
    expect(sent[1]?.url).toBe("/v1/agents/a%20b%2F..%2Fx/focus");
    for (const s of sent) expect(s.url).not.toContain("secret-key");
  });

  it("parses the server's response shapes (typed with the server's own types)", async () => {
    const focus: FocusView = { focus_limit: 5, focus: [{ node_id: 3, name: "Alice", key: "alice" }] };
    const stats: StatsView = {
      nodes: { total: 2, segments: 1, entities: 1, memories: 0, episodes: 0 },
      links: { total: 2, dangling: 0 },
      focus: 1,
      queue: { queued: 0, running: 0, done: 2, failed: 0 },
      characters: { held: 10, remembered: 12 },
      vector_index: { provider: "local", vectors: 2, bytes: 100 },
      counters: { cycles: 1 },
      placement: { jurisdiction: null, region: null, d1_shard: "DB", vector_index: null },
    };
    const recall: RecallResponse = {
      items: [
        {
          type: "memory",
          node_id: 4,
          content: "登录",
          phrase: "登录",
          speaker: null,
          role: "user",
          source_message_ids: ["m1"],
          created_at: 1,
          message_time: null,
          session_id: null,
          metadata: null,
          depth: 1,
          conflicts_with: [],
          scores: { hits: 1, keyword_score: 1, path_strength: 1, importance: 1, similarity: 0 },
        },
        { type: "forgotten", source_node_id: 4, phrase: "登录", relation: "关于", scores: { hits: 0, strength: 0.2 } },
      ],
      start_nodes: 1,
      reached_nodes: 2,
      text: "[记忆] 登录",
    };
    // A kind the server does not send yet: episodes (DESIGN §12).
    const node = { ...nodeView(4, [link(4, 3, 1, { pinned: true })]), kind: "episode" };
    const answers: Record<string, unknown> = { "/focus": focus, "/stats": stats, "/recall": recall, "/nodes/4": node };
    const { fn } = fakeFetch((url) => json(Object.entries(answers).find(([k]) => url.endsWith(k))?.[1]));
    const client = new ApiClient("k", fn);
    expect(await client.focus("a")).toEqual(focus);
    expect((await client.stats("a")).characters).toEqual({ held: 10, remembered: 12 });
    const parsed = await client.recallJson("a", { keywords: ["登录"], relations: [], start: "hybrid", locale: "zh" });
    expect(parsed.items.map((i) => i.type)).toEqual(["memory", "forgotten"]);
    // Kinds the server does not have yet (episodes) are accepted: the view has room for them.
    expect((await client.node("a", 4))?.kind).toBe("episode");
  });

  it("turns error envelopes, missing nodes, odd bodies and network failures into typed outcomes", async () => {
    const unauthorized = new ApiClient(
      "bad",
      fakeFetch(() => json({ error: { code: "unauthorized", message: "unknown or revoked API key" } }, 401)).fn,
    );
    const err = await unauthorized.focus("a").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).describe()).toBe("unauthorized: unknown or revoked API key (HTTP 401)");

    const missing = new ApiClient("k", fakeFetch(() => json({ error: { code: "not_found", message: "node 9 not found" } }, 404)).fn);
    expect(await missing.node("a", 9)).toBeNull();

    const odd = new ApiClient("k", fakeFetch(() => json({ focus: "nope" })).fn);
    await expect(odd.focus("a")).rejects.toMatchObject({ code: "bad_response" });

    const html = new ApiClient("k", fakeFetch(() => new Response("<html>oops</html>", { status: 502 })).fn);
    await expect(html.focus("a")).rejects.toMatchObject({ status: 502, code: "http_error" });

    const offline = new ApiClient("k", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(offline.focus("a")).rejects.toMatchObject({ status: 0, code: "network" });
  });

  it("returns recall text exactly as sent", async () => {
    const text = "[记忆] 昨天讨论了登录模块。\n---\n[已遗忘] 关于「JWT」的一段记忆已经遗忘";
    const { sent, fn } = fakeFetch(() => new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8" } }));
    expect(
      await new ApiClient("k", fn).recallText("a", { keywords: ["登录"], relations: [], start: "focus", locale: "zh", depth: 2 }),
    ).toBe(text);
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({
      keywords: ["登录"],
      relations: [],
      start: "focus",
      locale: "zh",
      depth: 2,
      format: "text",
    });
  });
});

describe("ApiClient writes", () => {
  it("sends each write with its own Idempotency-Key and parses the answer", async () => {
    const { sent, fn } = fakeFetch((url) =>
      url.endsWith("/memories")
        ? json(
            {
              node_id: 7,
              content: "Alice lives in Paris.",
              entities: ["Alice"],
              focus: [],
              nodes_evicted: 0,
              task_id: "t",
              status: "done",
            },
            201,
          )
        : json({ node_id: 8, supersedes: 7, links_moved: 2 }),
    );
    const client = new ApiClient("k", fn);
    expect((await client.addMemory("a", "Alice lives in Paris.")).node_id).toBe(7);
    expect(await client.updateMemory("a", 7, "Alice lives in Berlin.")).toEqual({ node_id: 8, supersedes: 7, links_moved: 2 });
    expect(sent.map((s) => `${s.init.method} ${s.url}`)).toEqual(["POST /v1/agents/a/memories", "PATCH /v1/agents/a/memories/7"]);
    const keys = sent.map((s) => (s.init.headers as Record<string, string>)["Idempotency-Key"]);
    expect(keys[0]).toMatch(/^web-[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(JSON.parse(String(sent[1]?.init.body))).toEqual({ content: "Alice lives in Berlin." });
  });

  it("follows a write answered 202 to its task's result", async () => {
    const { sent, fn } = fakeFetch((url) =>
      url.includes("/tasks/")
        ? json({
            task_id: "tsk_1",
            status: "done",
            error: null,
            result: { outcome: "forgotten", node_id: 5, purged: true, nodes_deleted: [5, 2], links_deleted: 3, messages_released: 0 },
          })
        : json({ task_id: "tsk_1", status: "queued" }, 202),
    );
    const deleted = await new ApiClient("k", fn).deleteMemory("a", 5, true);
    expect(deleted).toMatchObject({ node_id: 5, purged: true, nodes_deleted: [5, 2], links_deleted: 3 });
    expect(sent.map((s) => s.url)).toEqual(["/v1/agents/a/memories/5?purge=true", "/v1/agents/a/tasks/tsk_1?wait_ms=30000"]);
  });

  it("keeps the error envelope's details (the candidates of an ambiguous link end)", async () => {
    const details = { end: "target", description: "Alice", candidates: [{ node_id: 10, content: "Alice missed the train.", score: 0.9 }] };
    const { fn } = fakeFetch(() =>
      json({ error: { code: "conflict", message: "the target description matches several memories: name one by id", details } }, 409),
    );
    const err = await new ApiClient("k", fn).link("a", { source: 3, target: "Alice", relation: "related" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("conflict");
    expect((err as ApiError).details).toEqual(details);
  });
});
