/**
 * What the language libraries cost an isolate, in this process (V8, as workerd runs them):
 *
 *   npm run bench:startup
 *
 * - start-up: reading and compiling jieba's WebAssembly module, what the runtime does when the
 *   Worker starts (the English model is not loaded then);
 * - the first Chinese text: instantiating the module and building jieba's dictionary, then tagging;
 * - the first English text: importing wink's model, instantiating it, then tagging;
 * - after that: a sentence of each, tagged again (median of 200).
 *
 * Each figure is the median of RUNS fresh child processes (the first-time costs happen once per
 * process, as once per isolate). The machine may be shared: compare figures from one run only.
 */
import { execFileSync } from "node:child_process";
/// <reference path="../src/language/tagging/wasm-module.d.ts" />
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";

const RUNS = 7;
const ZH = "我家的猫叫豆豆，是一只三岁的橘猫，最喜欢在阳台上晒太阳。";
const EN = "I've been researching adoption agencies in New York because I dream of having a family.";

const SampleSchema = z.object({
  compileMs: z.number(),
  firstChineseMs: z.number(),
  firstEnglishMs: z.number(),
  chineseMs: z.number(),
  englishMs: z.number(),
});
type Sample = z.infer<typeof SampleSchema>;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/** One fresh process's figures (this file run with --child). */
async function child(): Promise<Sample> {
  // Read and compiled by scripts/wasm-hooks.mjs, as workerd compiles the Worker's module.
  let t = performance.now();
  const { default: module } = await import("../node_modules/jieba-wasm/pkg/web/jieba_rs_wasm_bg.wasm");
  const compileMs = performance.now() - t;
  const jieba = await import("jieba-wasm/web");
  t = performance.now();
  jieba.initSync({ module });
  jieba.tag(ZH, false);
  const firstChineseMs = performance.now() - t;
  const { loadEnglishTagger, tagEnglish } = await import("../src/language/tagging/english-tagger");
  t = performance.now();
  await loadEnglishTagger();
  tagEnglish(EN);
  const firstEnglishMs = performance.now() - t;
  const time = (f: () => void): number => {
    const xs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const s = performance.now();
      f();
      xs.push(performance.now() - s);
    }
    return median(xs);
  };
  return { compileMs, firstChineseMs, firstEnglishMs, chineseMs: time(() => jieba.tag(ZH, false)), englishMs: time(() => tagEnglish(EN)) };
}

async function main(): Promise<void> {
  if (process.argv.includes("--child")) {
    process.stdout.write(JSON.stringify(await child()));
    return;
  }
  const self = fileURLToPath(import.meta.url);
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const hooks = pathToFileURL(path.join(path.dirname(self), "..", "scripts", "wasm-hooks.mjs")).href;
    const out = execFileSync(process.execPath, [...process.execArgv, "--import", hooks, self, "--child"], { encoding: "utf8" });
    samples.push(SampleSchema.parse(JSON.parse(out)));
  }
  const row = (name: string, key: keyof Sample) =>
    `${name.padEnd(58)} ${median(samples.map((s) => s[key]))
      .toFixed(2)
      .padStart(8)} ms  (${samples.map((s) => s[key].toFixed(1)).join(", ")})`;
  console.log(`Node ${process.version}, median of ${RUNS} fresh processes`);
  console.log(row("start-up: compile jieba's WebAssembly module (4 MB)", "compileMs"));
  console.log(row("first Chinese text: instantiate, build the dictionary, tag", "firstChineseMs"));
  console.log(row("first English text: import wink's model, instantiate, tag", "firstEnglishMs"));
  console.log(row("then: one Chinese sentence (jieba tag)", "chineseMs"));
  console.log(row("then: one English sentence (wink readDoc, POS, lemmas)", "englishMs"));
}

await main();
