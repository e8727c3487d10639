/**
 * Reading a body of JSON Lines as it streams in (an import, src/operations/import-agent/route.ts), in work
 * linear in its size: line breaks are found in each chunk of bytes as it arrives (never by
 * searching what came before again), each line is decoded as UTF-8 on its own (so a bad byte is
 * reported on its own line), and a line longer than `maxLineBytes` or a body longer than `maxBytes`
 * is refused as soon as it is seen, before more of it is read or held.
 */

export class JsonLinesError extends Error {
  override readonly name = "JsonLinesError";
  constructor(
    /** The line the problem is on (1-based, blank lines counted). */
    readonly line: number,
    message: string,
    /** The body or the line is too long (413), rather than malformed (400). */
    readonly tooLarge: boolean,
  ) {
    super(message);
  }
}

export interface JsonLine {
  /** 1-based; blank lines count. */
  number: number;
  /** Without its line break (LF or CRLF) and, on the first line, without a byte order mark. */
  text: string;
}

const LF = 0x0a;

/**
 * The body's lines, in order. `onChunk` sees every chunk of bytes first (the import hashes them).
 * Throws JsonLinesError for a body that is too long, a line that is too long, or bytes that are not
 * UTF-8.
 */
export async function* jsonLines(
  body: ReadableStream<Uint8Array>,
  limits: { maxBytes: number; maxLineBytes: number },
  onChunk: (chunk: Uint8Array) => Promise<void>,
): AsyncGenerator<JsonLine, void> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const reader = body.getReader();
  let bytes = 0;
  let number = 1;
  let lineBytes = 0;
  let parts: string[] = [];
  const decode = (piece?: Uint8Array): string => {
    try {
      return piece === undefined ? decoder.decode() : decoder.decode(piece, { stream: true });
    } catch {
      throw new JsonLinesError(number, "not UTF-8", false);
    }
  };
  const line = (): JsonLine => {
    let text = parts.join("") + decode();
    if (number === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    return { number, text };
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limits.maxBytes) throw new JsonLinesError(number, `the body is longer than ${limits.maxBytes} bytes`, true);
      await onChunk(value);
      for (let start = 0; ;) {
        const newline = value.indexOf(LF, start);
        const end = newline < 0 ? value.byteLength : newline;
        lineBytes += end - start;
        if (lineBytes > limits.maxLineBytes) throw new JsonLinesError(number, `the line is longer than ${limits.maxLineBytes} bytes`, true);
        if (end > start) parts.push(decode(value.subarray(start, end)));
        if (newline < 0) break;
        yield line();
        number += 1;
        parts = [];
        lineBytes = 0;
        start = newline + 1;
      }
    }
    const last = line();
    if (last.text !== "") yield last;
  } finally {
    reader.releaseLock();
  }
}
