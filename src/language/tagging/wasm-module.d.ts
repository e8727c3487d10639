/**
 * A `.wasm` file imported as a compiled WebAssembly module: what workerd gives (wrangler's default
 * CompiledWasm rule, the vitest Workers pool) and what scripts/wasm-hooks.mjs gives under Node.
 */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
