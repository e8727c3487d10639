/**
 * What a user can do with a node, shown as buttons in the node panel: read actions (look only) and
 * memory operations (DESIGN §11: edit = supersede, link, delete, purge), each one `NodeAction`; the
 * node panel lists whatever is registered here and needs no other change. Adding a memory is not
 * about a node: it is the "Write" tab's form (web/src/ui/write-panel.ts), beside the link form.
 * Destructive actions declare a `confirm` text: the panel asks in the page before running them.
 */
import type { GraphNode } from "../graph/model";
import { isSuperseded } from "../graph/corrections";

export interface ActionContext {
  expand(id: number): Promise<void>;
  startFrom(ids: number[], label: string): Promise<void>;
  recallAbout(keywords: string[]): Promise<void>;
  /** Re-reads the shown network (after a write). */
  refresh(): Promise<void>;
  /** Opens the editor for a memory's content in the node panel (saving supersedes it). */
  editMemory(id: number): Promise<void>;
  /** Opens the link form with this memory as the source. */
  linkFrom(id: number): Promise<void>;
  /** Deletes a memory (links into it stay as traces), or purges every trace of it. */
  forget(id: number, purge: boolean): Promise<void>;
}

export interface Confirmation {
  question: string;
  confirmLabel: string;
}

export interface NodeAction {
  id: string;
  label: string;
  /** read: looks only; write: changes the agent's memory. */
  kind: "read" | "write";
  available(node: GraphNode): boolean;
  /** Destructive: asked first, in the page; run only when confirmed. */
  confirm?: (node: GraphNode) => Confirmation;
  run(node: GraphNode, ctx: ActionContext): Promise<void>;
}

const live = (node: GraphNode) => node.status !== "ghost";

/** A memory the operations apply to: read, not an entity (entities are merged, not edited). */
const memory = (node: GraphNode) => node.status === "loaded" && node.view !== null && node.view.kind !== "entity";

export const READ_ACTIONS: readonly NodeAction[] = [
  {
    id: "expand",
    label: "Expand",
    kind: "read",
    available: live,
    run: (node, ctx) => ctx.expand(node.id),
  },
  {
    id: "start-here",
    label: "Start from this node",
    kind: "read",
    available: live,
    run: (node, ctx) => ctx.startFrom([node.id], `Around #${node.id}`),
  },
  {
    id: "recall-about",
    label: "Recall its keywords",
    kind: "read",
    available: (node) => live(node) && (node.view?.keywords.length ?? 0) > 0,
    run: (node, ctx) => ctx.recallAbout(node.view?.keywords.slice(0, 8) ?? []),
  },
];

export const MEMORY_OPERATIONS: readonly NodeAction[] = [
  {
    id: "edit",
    label: "Edit",
    kind: "write",
    // A superseded version is history: the API refuses to edit it (edit the current one).
    available: (node) => memory(node) && !isSuperseded(node.view),
    run: (node, ctx) => ctx.editMemory(node.id),
  },
  {
    id: "link",
    label: "Link to…",
    kind: "write",
    available: (node) => memory(node) && !isSuperseded(node.view),
    run: (node, ctx) => ctx.linkFrom(node.id),
  },
  {
    id: "delete",
    label: "Delete",
    kind: "write",
    // A superseded version lives on in the current one: the API refuses to delete it alone.
    available: (node) => memory(node) && !isSuperseded(node.view),
    confirm: (node) => ({
      question: `Delete memory #${node.id}? It is forgotten at once; the links that pointed at it stay behind as traces.`,
      confirmLabel: "Delete",
    }),
    run: (node, ctx) => ctx.forget(node.id, false),
  },
  {
    id: "purge",
    label: "Purge",
    kind: "write",
    available: (node) => memory(node) && !isSuperseded(node.view),
    confirm: (node) => ({
      question: `Purge memory #${node.id}? Every trace goes too: the links into it, its earlier versions and the message ids it came from. This cannot be undone.`,
      confirmLabel: "Purge",
    }),
    run: (node, ctx) => ctx.forget(node.id, true),
  },
];

export function actionsFor(node: GraphNode): NodeAction[] {
  return [...READ_ACTIONS, ...MEMORY_OPERATIONS].filter((a) => a.available(node));
}
