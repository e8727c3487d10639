/**
 * The "Write" tab: add a memory (POST memories) and link two memories (POST links), by node id or
 * by description. A description several memories could match answers 409 with its candidates:
 * they are listed, and choosing one puts its id in the field (nothing was written).
 */
import { LINK_RELATIONS, linkRequest } from "../actions/link-request";
import type { MemoryWrites } from "../actions/memory-writes";
import { ApiError } from "../api/client";
import { LinkCandidatesSchema } from "../api/schemas";
import { relationName } from "../graph/relations";
import { langOf, truncate } from "../graph/style";
import { byId, formatNumber, h, replace } from "./dom";

export interface WritePanelDeps {
  writes(): MemoryWrites;
  /** The node selected in the graph, if any. */
  selected(): number | null;
}

export class WritePanel {
  private readonly content = byId("add-content", HTMLTextAreaElement);
  private readonly addResult = byId("add-result", HTMLParagraphElement);
  private readonly addButton = byId("add-submit", HTMLButtonElement);
  private readonly source = byId("link-source", HTMLInputElement);
  private readonly target = byId("link-target", HTMLInputElement);
  private readonly relation = byId("link-relation", HTMLSelectElement);
  private readonly strength = byId("link-strength", HTMLInputElement);
  private readonly linkButton = byId("link-submit", HTMLButtonElement);
  private readonly linkResult = byId("link-result", HTMLParagraphElement);
  private readonly candidates = byId("link-candidates", HTMLDivElement);

  constructor(private readonly deps: WritePanelDeps) {
    this.setLanguage("en");
    this.content.addEventListener("input", () => {
      this.content.lang = langOf(this.content.value);
    });
    for (const [button, field] of [
      ["link-source-selected", this.source],
      ["link-target-selected", this.target],
    ] as const) {
      byId(button, HTMLButtonElement).addEventListener("click", () => {
        const id = this.deps.selected();
        if (id !== null) field.value = `#${id}`;
        field.focus();
      });
    }
  }

  /**
   * The agent's language: the example in the memory field, and the relations' labels (English, with
   * the stored Chinese name beside it for a Chinese agent, whose recall text uses it).
   */
  setLanguage(language: "zh" | "en"): void {
    this.content.placeholder = language === "zh" ? "小明昨天在体育馆打篮球。" : "Alice moved to Berlin.";
    const chosen = this.relation.value;
    replace(
      this.relation,
      ...LINK_RELATIONS.map((r) =>
        h("option", { value: r.value }, language === "zh" ? `${relationName(r.name)} (${r.name})` : relationName(r.name)),
      ),
    );
    if (chosen) this.relation.value = chosen;
  }

  reset(): void {
    this.content.value = "";
    this.addResult.textContent = "";
    this.source.value = "";
    this.target.value = "";
    this.strength.value = "";
    this.linkResult.textContent = "";
    replace(this.candidates);
  }

  /** The link form with this memory as its source, the target field focused. */
  linkFrom(id: number): void {
    this.source.value = `#${id}`;
    replace(this.candidates);
    this.linkResult.textContent = "";
    this.target.focus();
  }

  async add(): Promise<void> {
    const content = this.content.value.trim();
    if (content.length === 0) {
      this.addResult.textContent = "Write the memory first.";
      return;
    }
    this.addButton.disabled = true;
    this.addResult.textContent = "Adding…";
    try {
      const created = await this.deps.writes().add(content);
      this.content.value = "";
      this.addResult.textContent = `Added #${created.node_id}: “${truncate(created.content, 80)}”${
        created.entities.length > 0 ? ` (entities: ${created.entities.join(", ")})` : ""
      }.`;
      this.addResult.lang = langOf(created.content);
    } catch (err) {
      this.addResult.textContent = "";
      throw err;
    } finally {
      this.addButton.disabled = false;
    }
  }

  async link(): Promise<void> {
    replace(this.candidates);
    const request = linkRequest({
      source: this.source.value,
      target: this.target.value,
      relation: this.relation.value,
      strength: this.strength.value,
    });
    if (!request.ok) {
      this.linkResult.textContent = request.problem;
      return;
    }
    this.linkButton.disabled = true;
    this.linkResult.textContent = "Linking…";
    try {
      const link = await this.deps.writes().link(request.params);
      this.linkResult.textContent = `Linked #${link.source} → #${link.target}: ${relationName(link.relation)}, strength ${formatNumber(link.strength)}.`;
    } catch (err) {
      this.linkResult.textContent = "";
      if (!this.showCandidates(err)) throw err;
    } finally {
      this.linkButton.disabled = false;
    }
  }

  /** An ambiguous description (409 with candidates): lists them to choose from; false for any other error. */
  private showCandidates(err: unknown): boolean {
    if (!(err instanceof ApiError) || err.code !== "conflict") return false;
    const parsed = LinkCandidatesSchema.safeParse(err.details);
    if (!parsed.success) return false;
    const { end, description, candidates } = parsed.data;
    const field = end === "source" ? this.source : this.target;
    const buttons = candidates.map((c) => {
      const button = h(
        "button",
        { type: "button", "data-node-id": c.node_id, lang: langOf(c.content) },
        `#${c.node_id} ${truncate(c.content, 70)}`,
      );
      button.addEventListener("click", () => {
        field.value = `#${c.node_id}`;
        replace(this.candidates);
        this.linkButton.focus();
      });
      return h("li", {}, button);
    });
    replace(
      this.candidates,
      h("p", { lang: langOf(description) }, `The ${end} “${description}” could mean several memories: choose one (nothing was linked).`),
      h("ul", { class: "candidates" }, ...buttons),
    );
    buttons[0]?.querySelector("button")?.focus();
    return true;
  }
}
