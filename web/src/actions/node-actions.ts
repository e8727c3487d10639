/**
 * What a user can do with a node, shown as buttons in the node panel. Read actions exist today.
 *
 * Memory operations (DESIGN §11: add an explicit memory, edit = supersede, link two memories,
 * delete or purge) are not in the API yet, so none is offered: when their endpoints exist, each
 * becomes one `NodeAction` with `kind: "write"` in `MEMORY_OPERATIONS` (plus an "add memory" form
 * beside the panels); the node panel lists whatever is registered here and needs no other change.
 */
import type { GraphNode } from "../graph/model";

export interface ActionContext {
  expand(id: number): Promise<void>;
  startFrom(ids: number[], label: string): Promise<void>;
  recallAbout(keywords: string[]): Promise<void>;
  /** Re-reads the shown network (after a write). */
  refresh(): Promise<void>;
}

export interface NodeAction {
  id: string;
  label: string;
  /** read: looks only; write: changes the agent's memory (needs the memory-operation endpoints). */
  kind: "read" | "write";
  available(node: GraphNode): boolean;
  run(node: GraphNode, ctx: ActionContext): Promise<void>;
}

const live = (node: GraphNode) => node.status !== "ghost";

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

/** Add, edit, link, delete: registered here once the API has them (see above). Empty on purpose. */
export const MEMORY_OPERATIONS: readonly NodeAction[] = [];

export function actionsFor(node: GraphNode): NodeAction[] {
  return [...READ_ACTIONS, ...MEMORY_OPERATIONS].filter((a) => a.available(node));
}
