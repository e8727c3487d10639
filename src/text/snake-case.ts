/** `nodeId` → `node_id`: how a field named in camelCase in the code is named where the API shows it. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The same, as a type: `SnakeCase<"sourceTaskId">` is `"source_task_id"`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;
