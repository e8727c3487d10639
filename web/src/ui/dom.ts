/**
 * A small element builder. Text always goes in as text nodes (never parsed as HTML), so memory
 * contents, agent ids and error messages cannot inject markup; a text carrying bidirectional
 * controls (an override such as U+202E) is isolated in a <bdi> with its controls shown, so it can
 * neither reverse what surrounds it nor pass itself off as other text.
 */
type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "object" ? child : textNode(String(child)));
  }
}

/** Embeddings, overrides, isolates and marks: what can reorder how a text reads. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** How a text is shown: as it is, or (bidirectional controls in it) isolated, each control as ⟨U+202E⟩. */
export function shownText(text: string): { text: string; isolated: boolean } {
  if (!new RegExp(BIDI_CONTROLS.source).test(text)) return { text, isolated: false };
  const visible = text.replace(BIDI_CONTROLS, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
  return { text: visible, isolated: true };
}

function textNode(text: string): Node {
  const shown = shownText(text);
  if (!shown.isolated) return document.createTextNode(text);
  const bdi = document.createElement("bdi");
  bdi.textContent = shown.text;
  return bdi;
}

/** Replaces an element's children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** The element with this id, of the expected type (the page's own markup, web/public/index.html). */
export function byId<T extends HTMLElement>(id: string, type: { new (): T }): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`the page is missing #${id}`);
  return el;
}

export function formatNumber(n: number, digits = 3): string {
  if (Number.isInteger(n)) return n.toLocaleString("en");
  return n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function formatTime(ms: number | null): string {
  if (ms === null) return "—";
  return new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
}

/** Splits a keywords or relations field: commas (ASCII, Chinese, enumeration comma) or new lines. */
export function splitList(text: string): string[] {
  return text
    .split(/[,，、;；\n]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
