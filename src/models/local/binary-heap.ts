/**
 * A binary heap ordered by `before(a, b)` (true when `a` comes out first). The local compressor's
 * greedy selection pops from it instead of scanning every candidate per step, which made a summary of
 * a long remember quadratic in its sentences.
 */
export class BinaryHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i] as T, items[parent] as T)) break;
      [items[i], items[parent]] = [items[parent] as T, items[i] as T];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < items.length && this.before(items[left] as T, items[first] as T)) first = left;
      if (right < items.length && this.before(items[right] as T, items[first] as T)) first = right;
      if (first === i) return top;
      [items[i], items[first]] = [items[first] as T, items[i] as T];
      i = first;
    }
  }
}
