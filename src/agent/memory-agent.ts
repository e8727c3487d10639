import { DurableObject } from "cloudflare:workers";

export class MemoryAgent extends DurableObject<Env> {}
