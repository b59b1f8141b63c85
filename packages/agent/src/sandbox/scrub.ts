import { MultiMatcher, type MatcherState } from './multi-matcher.js';
import { secretForms } from './secret-forms.js';
import { storableText } from './storable-text.js';

/**
 * Masks secrets in one piece of text (a tool argument, a file, a comment body). Also makes the text
 * storable (no NUL, no lone surrogate), since everything it returns is headed for the database.
 */
export interface Scrubber {
  (text: string): string;
  /** A scrubber for one output stream (a shell's output): see StreamScrubber. */
  stream(): StreamScrubber;
}

/**
 * Scrubs a stream chunk by chunk as if it were scrubbed whole: a secret printed in two pieces (two
 * writes, two feed items) is masked too. `write` returns what can be shown now and holds back only a
 * tail that could still grow into a secret (or a URL password); `end` returns the rest. Concatenated,
 * the returned pieces never contain a secret the one-shot scrubber would mask.
 */
export interface StreamScrubber {
  write(chunk: string): string;
  /** Everything still held back (the stream ended, or its consumer stops reading). */
  end(): string;
}

export const REDACTED = '[REDACTED]';

// scheme://user:password@ — the password part is masked whatever it is, so tokens we were never
// told about (e.g. typed by the agent into a git remote) do not leak either.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@'"`]+:)([^\s/?#@'"`]+)@/gi;
/**
 * A tail that is a URL password in progress: held back until its `@` (or something else) arrives.
 * `host:port` looks the same; an all-digit "password" is taken for a port, so a dev server's last
 * line (`Local: http://localhost:3000`) is not held back.
 */
const URL_PASSWORD_OPEN = /[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@'"`]+:(?:[^\s/?#@'"`]*[^\s/?#@'"`0-9])?$/i;
/** How far back a URL may start: the scheme and user of a split URL are kept as context. */
const URL_WINDOW = 1024;
/**
 * Characters that do not interrupt a match: line breaks (`base64` and `xxd -p` wrap their output),
 * NUL (dropped before storing) and invisible ones (zero-width spaces and joiners, soft hyphen, BOM),
 * which would otherwise split a value that still reads whole on screen.
 */
const TRANSPARENT = new Set([0x0a, 0x0d, 0x00, 0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]);
const WORD = /[A-Za-z0-9_]/;

interface Interval {
  start: number;
  end: number;
}

class Patterns {
  readonly matcher: MultiMatcher;
  /** Short values and their encodings: matched only as whole tokens (docs/decisions.md). */
  readonly tokenForms: string[];
  readonly tokenRegex: RegExp | null;
  readonly longestToken: number;

  constructor(secrets: readonly string[]) {
    // Values pasted into a settings form often carry a trailing newline the output never shows.
    const values = [...new Set(secrets.flatMap((value) => [value, value.trim()]))];
    const anywhere = new Set<string>();
    const tokens = new Set<string>();
    for (const value of values) {
      const { forms, wholeTokenOnly } = secretForms(value);
      for (const form of forms) (wholeTokenOnly ? tokens : anywhere).add(form);
    }
    this.matcher = new MultiMatcher([...anywhere], TRANSPARENT);
    this.tokenForms = [...tokens].sort((a, b) => b.length - a.length);
    this.longestToken = this.tokenForms[0]?.length ?? 0;
    this.tokenRegex = this.tokenForms.length
      ? new RegExp(`(?<![A-Za-z0-9_])(?:${this.tokenForms.map(escapeRegExp).join('|')})(?![A-Za-z0-9_])`, 'g')
      : null;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

class SecretStream implements StreamScrubber {
  /** Raw text not shown yet; it starts at stream position `shown`. */
  private pending = '';
  private shown = 0;
  /** The raw text just before `pending`: lookbehind for tokens and the start of a split URL. */
  private context = '';
  private readonly state: MatcherState;
  /** Known-value matches not shown yet (stream positions). */
  private found: Interval[] = [];

  constructor(private readonly patterns: Patterns) {
    this.state = patterns.matcher.start();
  }

  write(chunk: string): string {
    this.take(chunk);
    return this.release(this.holdFrom(), false);
  }

  end(): string {
    return this.release(this.shown + this.pending.length, true);
  }

  /** The whole text at once (the one-shot scrubber): nothing is held back. */
  all(text: string): string {
    this.take(text);
    return this.end();
  }

  private take(chunk: string): void {
    if (!chunk) return;
    if (!this.patterns.matcher.empty) {
      this.patterns.matcher.feed(this.state, chunk, (start, end) => this.found.push({ start, end }));
    }
    this.pending += chunk;
  }

  /** The earliest position that may still be part of a match completed by later output. */
  private holdFrom(): number {
    const end = this.shown + this.pending.length;
    let hold = end;
    if (!this.patterns.matcher.empty) {
      // A value split across a line break is only caught within one write (see docs).
      const lineStart =
        this.shown + Math.max(this.pending.lastIndexOf('\n'), this.pending.lastIndexOf('\r')) + 1;
      hold = Math.min(hold, Math.max(this.patterns.matcher.openFrom(this.state), lineStart));
    }
    hold = Math.min(hold, this.tokenHold(), this.urlHold());
    return Math.max(hold, this.shown);
  }

  /** A tail that is (the start of) a short value's form and might be followed by a word character. */
  private tokenHold(): number {
    const { tokenForms, longestToken } = this.patterns;
    const text = this.pending;
    for (let i = Math.max(0, text.length - longestToken); i < text.length; i++) {
      const before = i > 0 ? text[i - 1]! : this.context.at(-1);
      if (before !== undefined && WORD.test(before)) continue;
      const tail = text.slice(i);
      if (tokenForms.some((form) => form.startsWith(tail))) return this.shown + i;
    }
    return this.shown + text.length;
  }

  private urlHold(): number {
    const window = this.pending.slice(-URL_WINDOW);
    if (!window.includes('://')) return this.shown + this.pending.length;
    const open = URL_PASSWORD_OPEN.exec(window);
    return this.shown + this.pending.length - window.length + (open ? open.index : window.length);
  }

  /** Shows everything before `cut` (scrubbed) and keeps the rest pending. */
  private release(cut: number, final: boolean): string {
    if (!final && cut > this.shown && isHighSurrogate(this.pending.charCodeAt(cut - this.shown - 1))) {
      cut -= 1; // never split a surrogate pair: its second half may come with the next write
    }
    const intervals = this.intervals();
    // A match that would be cut in two is held back whole.
    for (const interval of intervals) {
      if (interval.start < cut && interval.end > cut) cut = interval.start;
    }
    if (cut <= this.shown) return '';
    let out = '';
    let at = this.shown;
    for (const { start, end: stop } of intervals) {
      if (start >= cut) break;
      out += this.pending.slice(at - this.shown, start - this.shown) + REDACTED;
      at = stop;
    }
    const raw = this.pending.slice(0, cut - this.shown);
    out += this.pending.slice(at - this.shown, cut - this.shown);
    this.context = (this.context + raw).slice(-URL_WINDOW);
    this.pending = this.pending.slice(cut - this.shown);
    this.shown = cut;
    this.found = this.found.filter((f) => f.end > cut);
    return storableText(out);
  }

  /** Every match in the pending text (known values, short-value tokens, URL passwords), merged. */
  private intervals(): Interval[] {
    const list = this.found.slice();
    const { tokenRegex } = this.patterns;
    const lead = this.context.length;
    const text = this.context + this.pending;
    const base = this.shown - lead;
    if (tokenRegex) {
      for (const match of text.matchAll(tokenRegex)) {
        list.push({ start: base + match.index, end: base + match.index + match[0].length });
      }
    }
    if (text.includes('://')) {
      for (const match of text.matchAll(URL_CREDENTIALS)) {
        const start = base + match.index + match[1]!.length;
        list.push({ start, end: start + match[2]!.length });
      }
    }
    const merged: Interval[] = [];
    for (const interval of list
      .map((i) => ({ start: Math.max(i.start, this.shown), end: i.end }))
      .filter((i) => i.end > i.start)
      .sort((a, b) => a.start - b.start)) {
      const last = merged.at(-1);
      if (last && interval.start < last.end) last.end = Math.max(last.end, interval.end);
      else merged.push(interval);
    }
    return merged;
  }
}

/**
 * Patterns are immutable once built, and a run builds them for its repository's secrets and its
 * installation's code-host token: the same list for every agent of a repository within the token's
 * hour. Building them (every encoding of every value, then the automaton) took about 0.4 ms per
 * run, 40 ms of the event loop when 100 agents start at once (issue 15). The few lists in use
 * are kept, the least recently used dropped first; a secret changed or a token renewed is a new
 * list, so nothing stale is ever matched against.
 */
const PATTERN_LISTS = 16;
const patternCache = new Map<string, Patterns>();

function patternsFor(secrets: readonly string[]): Patterns {
  const key = JSON.stringify(secrets);
  let patterns = patternCache.get(key);
  if (patterns) patternCache.delete(key);
  else patterns = new Patterns(secrets);
  patternCache.set(key, patterns); // most recently used last
  if (patternCache.size > PATTERN_LISTS) patternCache.delete(patternCache.keys().next().value!);
  return patterns;
}

/**
 * Masks known secret values, their common encodings (secret-forms.ts) and URL credentials. A
 * value that contains another is masked whole: overlapping matches become one [REDACTED].
 */
export function createScrubber(secrets: readonly string[]): Scrubber {
  const patterns = patternsFor(secrets);
  const scrub = (text: string): string => new SecretStream(patterns).all(text);
  return Object.assign(scrub, { stream: (): StreamScrubber => new SecretStream(patterns) });
}
