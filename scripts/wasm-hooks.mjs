// Node module hooks that import a `.wasm` file as a compiled WebAssembly.Module, the way workerd
// (wrangler's CompiledWasm rule) does, so the Worker's sources also run under Node (the in-process
// benchmark probe, scripts that build the app): `tsx --import ./scripts/wasm-hooks.mjs …`.
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

/** Node's `load` hook: a `.wasm` URL becomes a module whose default export is the compiled module. */
export async function load(url, context, nextLoad) {
  if (!url.endsWith(".wasm")) return nextLoad(url, context);
  const source = `import { readFileSync } from "node:fs";
export default new WebAssembly.Module(readFileSync(new URL(${JSON.stringify(url)})));`;
  return { format: "module", source, shortCircuit: true };
}

// Imported with --import on the main thread: register this file's hooks (Node then loads it again
// on its hooks thread, where it only exports them).
if (isMainThread) register(import.meta.url);
