// Node module hooks that import a `.wasm` file as a compiled WebAssembly.Module, the way workerd
// (wrangler's CompiledWasm rule) does, so the Worker's sources also run under Node (the in-process
// benchmark probe, scripts that build the app): `tsx --import ./scripts/wasm-hooks.mjs …`.
import { register } from "node:module";

/** Node's `load` hook: a `.wasm` URL becomes a module whose default export is the compiled module. */
export async function load(url, context, nextLoad) {
  if (!url.endsWith(".wasm")) return nextLoad(url, context);
  const source = `import { readFileSync } from "node:fs";
export default new WebAssembly.Module(readFileSync(new URL(${JSON.stringify(url)})));`;
  return { format: "module", source, shortCircuit: true };
}

// Imported with --import (not as the hooks thread itself): register this file's hooks.
if (!process.env.WASM_HOOKS_THREAD) {
  process.env.WASM_HOOKS_THREAD = "1";
  register(import.meta.url);
}
