/**
 * Export and import (docs/design.md §11): the whole memory of an agent as versioned JSON Lines,
 * and an import into an empty agent that answers exactly as the exported one did. A bad file, a
 * non-empty agent or a wrong media type is refused and writes nothing; a retry of an import with
 * its Idempotency-Key is recognised.
 */
import { describe, expect, it } from "vitest";
import { call, freshAgent, json, rememberAndWait } from "./helpers";
import { exportOf, importInto } from "./transfer-helpers";

/** Everything the API answers about an agent that an import must reproduce. */
async function answers(agent: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const stats = await json<Record<string, unknown>>(await call(`/v1/agents/${agent}/stats?wait_ms=30000`));
  // The queue and request-side counters describe this agent's traffic, not its memory; its
  // placement (the shard it was given) where it lives.
  delete stats.queue;
  delete stats.agent_id;
  delete stats.placement;
  out.push(stats);
  out.push(await json(await call(`/v1/agents/${agent}/focus`)));
  out.push(await json(await call(`/v1/agents/${agent}/memories?include_superseded=true&limit=100`)));
  for (const keywords of [["Ingrid"], ["Lyon"], ["violin"], ["英格丽"], ["小提琴", "音乐会"]]) {
    out.push(await (await call(`/v1/agents/${agent}/recall`, { body: { keywords } })).text());
    out.push(await json(await call(`/v1/agents/${agent}/recall?format=json`, { body: { keywords, depth: 3 } })));
  }
  for (const query of ["Ingrid violin concert", "where does Ingrid live", "英格丽的小提琴"]) {
    for (const mode of ["keyword", "vector", "hybrid"]) {
      out.push(await json(await call(`/v1/agents/${agent}/search`, { body: { query, mode } })));
    }
  }
  return out;
}

/** An agent with conversation, explicit memories, an update (history), a forgotten node (dangling links), an alias. */
async function populated(): Promise<string> {
  const agent = freshAgent("export");
  await rememberAndWait(agent, [
    { role: "user", content: "Ingrid lives in Lyon and plays the violin.", id: "m1" },
    { role: "assistant", content: "Lovely, does Ingrid play in an orchestra in Lyon?", id: "m2" },
    { role: "user", content: "Yes, Ingrid plays with the Lyon chamber orchestra every Friday.", id: "m3" },
    { role: "user", content: "英格丽下周六在里昂有一场小提琴音乐会。", id: "m4" },
  ]);
  // A manual merge: 英格丽 is Ingrid (kept as her alias).
  const focus = await json<{ focus: { node_id: number; key: string }[] }>(await call(`/v1/agents/${agent}/focus`));
  const id = (key: string) => focus.focus.find((f) => f.key === key)?.node_id;
  const merged = await call(`/v1/agents/${agent}/entities/${id("英格丽")}/merge`, { body: { into: id("ingrid") } });
  expect(merged.status).toBe(200);
  const created = await json<{ node_id: number }>(
    await call(`/v1/agents/${agent}/memories`, { body: { content: "Ingrid bought a new violin bow yesterday.", timestamp: Date.now() } }),
  );
  await call(`/v1/agents/${agent}/memories/${created.node_id}`, {
    method: "PATCH",
    body: { content: "Ingrid bought a new carbon violin bow." },
  });
  const note = await json<{ node_id: number }>(
    await call(`/v1/agents/${agent}/memories`, { body: { content: "Ingrid's concert tickets are in the blue drawer." } }),
  );
  expect((await call(`/v1/agents/${agent}/memories/${note.node_id}`, { method: "DELETE" })).status).toBe(200);
  await call(`/v1/agents/${agent}/memories`, { body: { content: "The violins of the orchestra are tuned on Fridays." } });
  // Settled: an export is a read and overtakes the compression cycle that write queued, so the
  // source would otherwise run one more cycle after it was exported than its copy ever sees.
  await call(`/v1/agents/${agent}/stats?wait_ms=30000`);
  return agent;
}

describe("export", () => {
  it("holds everything in order: header, focus, nodes with history, links including dangling ones, aliases, message ids, end counts", async () => {
    const agent = await populated();
    const { lines } = await exportOf(agent);
    expect(lines[0]).toMatchObject({ type: "header", format: "agent-memory-export", version: 1, agent_id: agent });
    expect(lines[1]?.type).toBe("focus");
    const order = ["header", "focus", "node", "link", "alias", "messages", "end"];
    const positions = lines.map((l) => order.indexOf(l.type));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const nodes = lines.filter((l) => l.type === "node");
    const links = lines.filter((l) => l.type === "link");
    const ids = new Set(nodes.map((n) => n.id as number));
    // History: the superseded version is there, pointing at its successor.
    // (Compression may have shortened the old version: it is found by its successor.)
    const updated = nodes.find((n) => String(n.content).includes("carbon violin bow"));
    const old = nodes.filter((n) => n.superseded_by === updated?.id);
    expect(old).toHaveLength(1);
    expect(old[0]).toMatchObject({ kind: "memory", content: expect.stringContaining("Ingrid") });
    expect(updated?.superseded_by).toBeNull();
    // The forgotten note is gone but links into it stay (dangling).
    expect(nodes.some((n) => String(n.content).includes("blue drawer"))).toBe(false);
    expect(links.some((l) => !ids.has(l.target as number))).toBe(true);
    // The merged name is kept as an alias of the survivor.
    const ingrid = nodes.find((n) => n.kind === "entity" && n.name === "ingrid");
    expect(lines.filter((l) => l.type === "alias")).toContainEqual({ type: "alias", key: "英格丽", name: "英格丽", node_id: ingrid?.id });
    expect(nodes.some((n) => n.kind === "entity" && n.name === "英格丽")).toBe(false);
    const messages = lines.filter((l) => l.type === "messages").flatMap((l) => l.ids as string[]);
    expect(messages).toEqual(["m1", "m2", "m3", "m4"]);
    expect(lines.at(-1)).toEqual({
      type: "end",
      nodes: nodes.length,
      links: links.length,
      aliases: lines.filter((l) => l.type === "alias").length,
      messages: 4,
    });
  });
});

describe("import", () => {
  it("export → import into a new agent gives identical stats, focus, listings, recall and search answers; importing its export again gives the same file", async () => {
    const source = await populated();
    const { text } = await exportOf(source);
    const target = freshAgent("imported");
    const res = await importInto(target, text);
    expect(res.status, await res.clone().text()).toBe(200);
    const lines = text.split("\n").filter((l) => l !== "");
    const end = JSON.parse(lines.at(-1) ?? "{}") as Record<string, number>;
    expect(await json(res)).toEqual({ nodes: end.nodes, links: end.links, aliases: end.aliases, messages: end.messages });
    const expected = await answers(source);
    // The answers compared are about something: the memories themselves.
    const seen = JSON.stringify(expected);
    for (const part of ["carbon violin bow", "chamber orchestra", "小提琴音乐会", "[forgotten]"]) expect(seen).toContain(part);
    expect(await answers(target)).toEqual(expected);
    // The copy's export is the source's (the export time and the agent id aside).
    const parsed = async (agent: string) => {
      const lines = (await exportOf(agent)).lines;
      const [header, ...rest] = lines;
      if (!header) throw new Error("an empty export");
      const { exported_at: _at, agent_id: _id, ...kept } = header;
      return [kept, ...rest];
    };
    expect(await parsed(target)).toEqual(await parsed(source));
    // Message ids came along: a message the source already held is skipped in the copy too.
    const again = await rememberAndWait(target, [{ role: "user", content: "Ingrid lives in Lyon and plays the violin.", id: "m1" }]);
    expect(again.result).toMatchObject({ messages_skipped: 1 });
  });

  it("refuses a file with one corrupt line (400 naming it) and writes nothing", async () => {
    const { text } = await exportOf(await populated());
    const lines = text.split("\n").filter((l) => l !== "");
    const target = freshAgent("corrupt");
    const broken = [...lines];
    const at = lines.findIndex((l) => l.includes('"type":"link"'));
    broken[at] = broken[at]?.replace('"relation":', '"relation_":') ?? "";
    for (const body of [
      broken.join("\n"),
      [...lines.slice(0, 5), "{not json", ...lines.slice(5)].join("\n"),
      lines.slice(0, -1).join("\n"), // no end line: truncated
      lines.slice(1).join("\n"), // no header
      lines.map((l, i) => (i === 0 ? l.replace('"version":1', '"version":2') : l)).join("\n"),
      [...lines.slice(0, 3), lines[2], ...lines.slice(3)].join("\n"), // a node twice
    ]) {
      const res = await importInto(target, body);
      expect(res.status).toBe(400);
      expect((await json<{ error: { code: string; message: string } }>(res)).error.message).toMatch(/^line \d+: /);
    }
    const res = await importInto(target, broken.join("\n"));
    expect(await json(res)).toMatchObject({ error: { details: { line: at + 1 } } });
    const stats = await json<{ nodes: { total: number }; links: { total: number } }>(
      await call(`/v1/agents/${target}/stats?wait_ms=30000`),
    );
    expect(stats.nodes.total).toBe(0);
    expect(stats.links.total).toBe(0);
    expect(await json(await call(`/v1/agents/${target}/memories`))).toEqual({ items: [], next_cursor: null });
    expect(await json(await call(`/v1/agents/${target}/focus`))).toMatchObject({ focus: [] });
    // Still empty: the good file goes in afterwards.
    expect((await importInto(target, text)).status).toBe(200);
  });

  it("refuses a non-empty agent (409) and a body that is not JSON Lines (415), writing nothing", async () => {
    const { text } = await exportOf(await populated());
    const busy = freshAgent("busy");
    await rememberAndWait(busy, [{ role: "user", content: "Olaf keeps bees in the orchard." }]);
    const before = await json(await call(`/v1/agents/${busy}/stats?wait_ms=30000`));
    const res = await importInto(busy, text);
    expect(res.status).toBe(409);
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe("conflict");
    expect(await json(await call(`/v1/agents/${busy}/stats?wait_ms=30000`))).toEqual(before);
    const empty = freshAgent("media");
    expect((await call(`/v1/agents/${empty}/import`, { rawBody: text, headers: { "Content-Type": "text/plain" } })).status).toBe(415);
    expect((await importInto(empty, "")).status).toBe(400);
    expect(await json(await call(`/v1/agents/${empty}/memories`))).toEqual({ items: [], next_cursor: null });
  });

  it("a retry with the same Idempotency-Key answers the first import; the same key with another file is refused", async () => {
    const { text } = await exportOf(await populated());
    const target = freshAgent("retry");
    const first = await importInto(target, text, { "Idempotency-Key": "import-1" });
    expect(first.status).toBe(200);
    const body = await json(first);
    const stats = await json(await call(`/v1/agents/${target}/stats?wait_ms=30000`));
    const retry = await importInto(target, text, { "Idempotency-Key": "import-1" });
    expect(retry.status).toBe(200);
    expect(await json(retry)).toEqual(body);
    expect(await json(await call(`/v1/agents/${target}/stats?wait_ms=30000`))).toEqual(stats);
    const other = text.replace(/"exported_at":\d+/, '"exported_at":1700000000000');
    expect(other).not.toBe(text);
    expect((await importInto(target, other, { "Idempotency-Key": "import-1" })).status).toBe(422);
  });
});
