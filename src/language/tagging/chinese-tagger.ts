/**
 * Chinese words with parts of speech: jieba (jieba-rs compiled to WebAssembly, `jieba-wasm`, with
 * its own dictionary). The module is compiled when the Worker starts; the dictionary is built on
 * the first Chinese text an isolate sees (a few hundred milliseconds, docs/BENCHMARKS.md) and kept.
 */
/// <reference path="./wasm-module.d.ts" />
import jiebaWasm from "../../../node_modules/jieba-wasm/pkg/web/jieba_rs_wasm_bg.wasm";
import { initSync, tag } from "jieba-wasm/web";

export interface ChineseWord {
  word: string;
  /** jieba's tag (ICTCLAS-style: n, nr, ns, v, a, d, r, m, x …). */
  tag: string;
}

let memory: ReturnType<typeof initSync>["memory"] | undefined;

/** Every character of `text`, as jieba's words with their tags (concatenated they give `text` back). */
export function tagChinese(text: string): ChineseWord[] {
  memory ??= initSync({ module: jiebaWasm }).memory;
  return tag(text, false);
}

/** The bytes of jieba's WebAssembly memory (0 before the first Chinese text): it keeps no words it read. */
export function chineseTaggerBytes(): number {
  return memory?.buffer.byteLength ?? 0;
}
