/**
 * An Aho-Corasick automaton over UTF-16 code units: finds every occurrence of many literal patterns
 * in one pass over a stream, whatever the chunk boundaries, and says how much of the stream's tail
 * could still become a match. Characters in `transparent` (line breaks) are skipped, so a value that
 * a tool wrapped over several lines (`base64`, `xxd -p`) still matches.
 */
export class MultiMatcher {
  // Children: most trie nodes of long patterns have one, so it is kept inline; the rest in a Map.
  private readonly firstCode: number[] = [-1];
  private readonly firstNext: number[] = [0];
  private readonly more: (Map<number, number> | undefined)[] = [undefined];
  private readonly fail: number[] = [0];
  private readonly depth: number[] = [0];
  /** Longest pattern ending at this node (itself or a suffix of it); 0 when none. */
  private readonly matchLength: number[] = [0];
  /** Depth of the longest suffix of this node that some pattern continues; what must be held back. */
  private readonly openDepth: number[] = [0];
  readonly empty: boolean;
  /** The longest pattern (in non-transparent characters). */
  private readonly longest: number;

  constructor(
    patterns: readonly string[],
    private readonly transparent: ReadonlySet<number> = new Set(),
  ) {
    for (const pattern of patterns) this.add(pattern);
    this.empty = this.depth.length === 1;
    this.longest = Math.max(0, ...this.depth);
    this.link();
  }

  start(): MatcherState {
    return { node: 0, recent: [], position: 0 };
  }

  /**
   * Feeds `text` (which starts at the stream's `state.position`) and calls `found(start, end)` with
   * stream positions of every longest match ending at each character.
   */
  feed(state: MatcherState, text: string, found: (start: number, end: number) => void): void {
    let node = state.node;
    const recent = state.recent;
    const base = state.position;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (this.transparent.has(code)) continue;
      let next = this.child(node, code);
      while (next < 0 && node !== 0) {
        node = this.fail[node]!;
        next = this.child(node, code);
      }
      node = next < 0 ? 0 : next;
      recent.push(base + i);
      // Only the last `longest` positions can start a match: keep a long text from piling up.
      if (recent.length > 4 * this.longest + 65536) recent.splice(0, recent.length - this.longest);
      const length = this.matchLength[node]!;
      if (length) found(recent[recent.length - length]!, base + i + 1);
    }
    // Only the last `depth` positions can start a future match.
    const keep = this.depth[node]!;
    if (recent.length > 4 * keep + 1024) recent.splice(0, recent.length - keep);
    state.node = node;
    state.position = base + text.length;
  }

  /** Stream position where the longest tail that could still grow into a match starts (end if none). */
  openFrom(state: MatcherState): number {
    const open = this.openDepth[state.node]!;
    return open ? state.recent[state.recent.length - open]! : state.position;
  }

  private child(node: number, code: number): number {
    if (this.firstCode[node] === code) return this.firstNext[node]!;
    return this.more[node]?.get(code) ?? -1;
  }

  private newNode(depth: number): number {
    this.firstCode.push(-1);
    this.firstNext.push(0);
    this.more.push(undefined);
    this.fail.push(0);
    this.depth.push(depth);
    this.matchLength.push(0);
    this.openDepth.push(0);
    return this.depth.length - 1;
  }

  private add(pattern: string): void {
    let node = 0;
    let length = 0;
    for (let i = 0; i < pattern.length; i++) {
      const code = pattern.charCodeAt(i);
      if (this.transparent.has(code)) continue;
      length += 1;
      let next = this.child(node, code);
      if (next < 0) {
        next = this.newNode(length);
        if (this.firstCode[node] === -1) {
          this.firstCode[node] = code;
          this.firstNext[node] = next;
        } else {
          (this.more[node] ??= new Map()).set(code, next);
        }
      }
      node = next;
    }
    if (length) this.matchLength[node] = Math.max(this.matchLength[node]!, length);
  }

  private children(node: number): [number, number][] {
    const list: [number, number][] = [];
    if (this.firstCode[node] !== -1) list.push([this.firstCode[node]!, this.firstNext[node]!]);
    for (const entry of this.more[node] ?? []) list.push(entry);
    return list;
  }

  /** Failure links in breadth-first order, so a node's suffixes are done before it. */
  private link(): void {
    const queue: number[] = [0];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      const kids = this.children(node);
      const fail = this.fail[node]!;
      this.matchLength[node] = Math.max(this.matchLength[node]!, node ? this.matchLength[fail]! : 0);
      this.openDepth[node] = kids.length ? this.depth[node]! : node ? this.openDepth[fail]! : 0;
      for (const [code, kid] of kids) {
        let f = fail;
        let target = node ? this.child(f, code) : -1;
        while (node && target < 0 && f !== 0) {
          f = this.fail[f]!;
          target = this.child(f, code);
        }
        this.fail[kid] = node && target >= 0 && target !== kid ? target : 0;
        queue.push(kid);
      }
    }
  }
}

export interface MatcherState {
  node: number;
  /** Stream positions of the latest non-transparent characters. */
  recent: number[];
  /** Stream position of the next character. */
  position: number;
}
