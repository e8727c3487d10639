import { describe, expect, it } from "vitest";
import { JsonLinesError, jsonLines, type JsonLine } from "../../../src/surfaces/json-lines";

async function linesOf(chunks: (string | number[])[]): Promise<JsonLine[]> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === "string" ? new TextEncoder().encode(c) : new Uint8Array(c));
      controller.close();
    },
  });
  const out: JsonLine[] = [];
  for await (const line of jsonLines(body, { maxBytes: 1000, maxLineBytes: 20 }, async () => {})) out.push(line);
  return out;
}

describe("issue 28 finding 2: quadratic import parser", () => {
  it("lines are split in each chunk as it arrives: across chunk boundaries, CRLF, a BOM, characters cut between chunks", async () => {
    const euro = [...new TextEncoder().encode("€")];
    expect(await linesOf(["\uFEFFab\r\n", "c", "d\n\n", [0x65, euro[0] ?? 0], [euro[1] ?? 0, euro[2] ?? 0, 0x0a], "last"])).toEqual([
      { number: 1, text: "ab" },
      { number: 2, text: "cd" },
      { number: 3, text: "" },
      { number: 4, text: "e€" },
      { number: 5, text: "last" },
    ]);
    await expect(linesOf(["x".repeat(21)])).rejects.toMatchObject({ line: 1, tooLarge: true });
    await expect(linesOf(["ok\n", "y".repeat(15), "y".repeat(6), "\n"])).rejects.toMatchObject({ line: 2, tooLarge: true });
    await expect(linesOf(["ok\n".repeat(300), "z".repeat(200)])).rejects.toBeInstanceOf(JsonLinesError);
  });
});
