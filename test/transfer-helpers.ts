/** Export and import as a client does them (GET export, POST import with JSON Lines), for the tests that need a file. */
import { expect } from "vitest";
import { call } from "./helpers";

export interface Line {
  type: string;
  [key: string]: unknown;
}

export const NDJSON = { "Content-Type": "application/x-ndjson" };

export async function exportOf(agent: string, key?: string): Promise<{ text: string; lines: Line[] }> {
  const res = await call(`/v1/agents/${agent}/export`, key === undefined ? {} : { key });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/x-ndjson");
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const lines = text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Line);
  return { text, lines };
}

export const importInto = (agent: string, body: string | Uint8Array, headers: Record<string, string> = {}, key?: string) =>
  call(`/v1/agents/${agent}/import`, {
    ...(typeof body === "string" ? { rawBody: body } : { rawBytes: body }),
    headers: { ...NDJSON, ...headers },
    ...(key === undefined ? {} : { key }),
  });

/** The lines of an empty agent's export (header, focus, end), to build a file from. */
export async function emptyFile(): Promise<{ header: Line; focus: Line; end: Line }> {
  const { lines } = await exportOf(`empty-${Math.random().toString(36).slice(2, 10)}`);
  const [header, focus, end] = lines;
  if (!header || !focus || !end) throw new Error("an empty export has a header, a focus and an end line");
  return { header, focus, end };
}

/** A file of the given lines between a header (with `header` changes) and an end line that counts them. */
export async function fileOf(lines: readonly Line[], header: Record<string, unknown> = {}): Promise<string> {
  const empty = await emptyFile();
  const count = (type: string) => lines.filter((l) => l.type === type).length;
  const messages = lines.filter((l) => l.type === "messages").reduce((n, l) => n + (l.ids as unknown[]).length, 0);
  const end = { type: "end", nodes: count("node"), links: count("link"), aliases: count("alias"), messages };
  return [{ ...empty.header, ...header }, empty.focus, ...lines, end].map((l) => JSON.stringify(l)).join("\n");
}

/** A node line with every field, as export writes it. */
export function nodeLine(id: number, fields: Record<string, unknown> = {}): Line {
  return {
    type: "node",
    id,
    kind: "segment",
    name: null,
    content: `Node ${id} content.`,
    original_length: 16,
    phrase: `node ${id}`,
    keywords: ["node"],
    role: "user",
    speaker: null,
    source_message_ids: [],
    source_task_id: null,
    message_time: null,
    created_at: 1_700_000_000_000,
    superseded_by: null,
    meta: null,
    scan_count: 0,
    reinforced_cycle: null,
    ...fields,
  };
}

export function linkLine(source: number, target: number, fields: Record<string, unknown> = {}): Line {
  return { type: "link", source, target, relation: "相关", level: 0, strength: 1, pinned: false, created_at: 1_700_000_000_000, ...fields };
}
