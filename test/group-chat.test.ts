/**
 * Group chats filtered by speaker (issue 36; the group-chat design of ../shared/seeds/004 filters
 * its searches by user): four speakers on the same topics, LoCoMo-style and MADial-style
 * (test/group-chat-fixtures.ts). For every question about one speaker, search and recall with
 * `speakers: [that speaker]` return only that speaker's memories, and recall@10 of the speaker's
 * evidence (a returned memory made from the evidence message) is no lower than without the filter.
 */
import { describe, expect, it } from "vitest";
import { call, freshAgent, json, waitTask } from "./helpers";
import { LOCOMO_STYLE, MADIAL_STYLE, type GroupChat, type Question } from "./group-chat-fixtures";

interface Hit {
  type?: string;
  speaker: string | null;
  source_message_ids: string[];
}

async function remembered(chat: GroupChat): Promise<string> {
  const agent = freshAgent("group");
  for (const [i, turns] of chat.sessions.entries()) {
    const res = await call(`/v1/agents/${agent}/remember`, {
      body: {
        session_id: `D${i + 1}`,
        messages: turns.map((t) => ({ role: "user", name: t.speaker, content: t.text, id: t.id })),
      },
    });
    expect(res.status, await res.clone().text()).toBe(202);
    await waitTask(agent, (await json<{ task_id: string }>(res)).task_id);
  }
  return agent;
}

async function hits(agent: string, how: "search" | "recall", q: Question, filtered: boolean): Promise<Hit[]> {
  const filter = filtered ? { speakers: [q.speaker] } : {};
  const body = how === "search" ? { query: q.query, top_k: 10, ...filter } : { query: q.query, limit: 10, format: "json", ...filter };
  const res = await call(`/v1/agents/${agent}/${how}`, { body });
  expect(res.status, await res.clone().text()).toBe(200);
  const items = (await json<{ items: Hit[] }>(res)).items;
  return how === "search" ? items : items.filter((i) => i.type === "memory").slice(0, 10);
}

const found = (items: Hit[], q: Question) => q.evidence.some((id) => items.some((i) => i.source_message_ids.includes(id)));

describe.each([LOCOMO_STYLE, MADIAL_STYLE])("a group chat of four speakers, $name", (chat) => {
  it("filtered by speaker, search and recall return only that speaker's memories, with recall@10 of the speaker's evidence no lower", async () => {
    const agent = await remembered(chat);
    const rows: string[] = [];
    for (const how of ["search", "recall"] as const) {
      for (const speaker of chat.speakers) {
        let withFilter = 0;
        let without = 0;
        const questions = chat.questions.filter((q) => q.speaker === speaker);
        for (const q of questions) {
          const filtered = await hits(agent, how, q, true);
          expect(filtered.length, `${how} "${q.query}"`).toBeGreaterThan(0);
          for (const item of filtered) expect(item.speaker, `${how} "${q.query}"`).toBe(speaker);
          if (found(filtered, q)) withFilter++;
          if (found(await hits(agent, how, q, false), q)) without++;
        }
        rows.push(
          `${chat.name} ${how} ${speaker}: recall@10 ${withFilter}/${questions.length} filtered, ${without}/${questions.length} unfiltered`,
        );
        expect(withFilter, rows.at(-1)).toBeGreaterThanOrEqual(without);
        // The filtered read finds most of the speaker's evidence (not a vacuous "0 ≥ 0").
        expect(withFilter, rows.at(-1)).toBeGreaterThanOrEqual(Math.ceil(questions.length / 2));
      }
    }
    console.log(rows.join("\n"));
  });
});
