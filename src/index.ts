export { MemoryAgent } from "./agent/memory-agent";

export default {
  async fetch(): Promise<Response> {
    return new Response("not yet", { status: 503 });
  },
} satisfies ExportedHandler<Env>;
