/**
 * Well-formed Unicode: no lone surrogate. JSON can carry one ("\ud800"); stored, it turns into
 * replacement characters and its length disagrees with what was sent, so every text the API takes
 * is checked (src/surfaces/common-schemas.ts TextSchema, and every string of an import line).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function wellFormed(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/**
 * The path of the first string (or object key) in a parsed JSON value that is not well-formed,
 * or undefined. Iterative: a value nested however deep is walked without recursion.
 */
export function malformedPath(value: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const v = item.value;
    if (typeof v === "string") {
      if (!wellFormed(v)) return item.path;
    } else if (Array.isArray(v)) {
      v.forEach((element, i) => stack.push({ value: element, path: join(item.path, String(i)) }));
    } else if (typeof v === "object" && v !== null) {
      for (const [key, element] of Object.entries(v)) {
        if (!wellFormed(key)) return join(item.path, key);
        stack.push({ value: element, path: join(item.path, key) });
      }
    }
  }
  return undefined;
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}
