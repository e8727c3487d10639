/**
 * Recall as the agent gets it: the plain text exactly as returned (format text), and the same
 * recall as JSON for the node ids, which are highlighted in the graph (traces: the nodes that still
 * link to something forgotten). Below it, the context block for the same query within a token
 * budget, as a model would get it in front of its prompt, its memories ringed the same way.
 */
import type { ApiClient, ContextParams, RecallParams } from "../api/client";
import { langOf } from "../graph/style";
import { byId, replace, splitList } from "./dom";

export interface RecallDeps {
  client(): ApiClient;
  agent(): string;
  showHits(memories: number[], traceSources: number[]): Promise<void>;
}

export class RecallPanel {
  private readonly keywords = byId("recall-keywords", HTMLInputElement);
  private readonly query = byId("recall-query", HTMLInputElement);
  private readonly relations = byId("recall-relations", HTMLInputElement);
  private readonly depth = byId("recall-depth", HTMLInputElement);
  private readonly start = byId("recall-start", HTMLSelectElement);
  private readonly locale = byId("recall-locale", HTMLSelectElement);
  private readonly output = byId("recall-text", HTMLPreElement);
  private readonly summary = byId("recall-summary", HTMLParagraphElement);
  private readonly budget = byId("context-budget", HTMLInputElement);
  private readonly withProfile = byId("context-profile", HTMLInputElement);
  private readonly block = byId("context-text", HTMLPreElement);
  private readonly blockSummary = byId("context-summary", HTMLParagraphElement);

  constructor(private readonly deps: RecallDeps) {}

  /** The agent's language: the labels recall and the context block are asked for, and the examples in the fields. */
  setLanguage(language: "zh" | "en"): void {
    this.locale.value = language;
    this.keywords.placeholder = language === "zh" ? "comma separated: 登录, JWT" : "comma separated: login, JWT";
    this.relations.placeholder = language === "zh" ? "all, or e.g. 关于, next" : "all, or e.g. about, next";
  }

  reset(): void {
    this.output.textContent = "";
    this.summary.textContent = "";
    this.block.textContent = "";
    this.blockSummary.textContent = "";
  }

  setKeywords(keywords: readonly string[]): void {
    this.keywords.value = keywords.join(", ");
    this.query.value = "";
  }

  params(): RecallParams {
    const params: RecallParams = {
      keywords: splitList(this.keywords.value),
      relations: splitList(this.relations.value),
      start: this.start.value === "focus" ? "focus" : "hybrid",
      locale: this.locale.value === "en" ? "en" : "zh",
    };
    const query = this.query.value.trim();
    if (query) params.query = query;
    // An out-of-range depth goes to the API as typed: its 400 explains the bounds.
    if (this.depth.value.trim() !== "") params.depth = Number(this.depth.value);
    return params;
  }

  async run(): Promise<void> {
    const client = this.deps.client();
    const agent = this.deps.agent();
    const params = this.params();
    this.summary.textContent = "Recalling…";
    const text = await client.recallText(agent, params);
    this.output.textContent = text;
    this.output.lang = langOf(text);
    const json = await client.recallJson(agent, params);
    const memories: number[] = [];
    const traces: number[] = [];
    for (const item of json.items) {
      if (item.type === "memory") memories.push(item.node_id);
      else traces.push(item.source_node_id);
    }
    this.summary.textContent =
      (text === "" ? "Empty: the agent would receive no text. " : "") +
      `${memories.length} memories and ${traces.length} forgotten traces; the search started from ${json.start_nodes} nodes and reached ${json.reached_nodes}. Hits are ringed in the graph.`;
    await this.deps.showHits(memories, traces);
  }

  contextParams(): ContextParams {
    const recall = this.params();
    const query = recall.query ?? recall.keywords.join(" ");
    return {
      ...(query !== "" ? { query } : {}),
      // An out-of-range budget goes to the API as typed: its 400 explains the bounds.
      budget_tokens: Number(this.budget.value),
      include: this.withProfile.checked ? ["memories", "episodes", "traces", "profile"] : ["memories", "episodes", "traces"],
      locale: recall.locale,
    };
  }

  async previewContext(): Promise<void> {
    const params = this.contextParams();
    this.blockSummary.textContent = "Building the block…";
    const block = await this.deps.client().context(this.deps.agent(), params);
    replace(this.block, block.text);
    this.block.lang = langOf(block.text);
    this.blockSummary.textContent =
      (block.text === "" ? "Empty: nothing fits or nothing matches. " : "") +
      `${block.used_tokens} of ${block.budget_tokens} tokens: ${block.memories.length} memories, ${block.episodes.length} episodes, ${block.traces.length} traces` +
      (block.query !== "" ? ` for "${block.query}".` : " (no query: around the focus).") +
      " Its memories are ringed in the graph.";
    await this.deps.showHits(
      block.memories.map((m) => m.node_id),
      [],
    );
  }
}
