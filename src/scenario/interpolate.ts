// `{{var}}` and `${env:…}` substitution. A line's text is expanded before its values are read; the
// expanded text keeps a map back to the source, so a problem in a substituted value is reported at
// the `{{name}}` that brought it in, and every character knows whether it came from the file, the
// environment or the command line (a password must not come from the file).
import type { Range } from './plan';
import { DiagnosticSink, rangeOf, replaceFix } from './diagnostics';
import type { Interpolation, VariableLine } from './parser';
import { closest } from './suggest';

/** `user-env`: an environment variable the user (not the file) allowed into commands. */
export type Origin = 'file' | 'env' | 'user-env' | 'cli';

interface Segment {
  /** Offsets in the expanded text. */
  from: number;
  to: number;
  /** Offsets in the source line. */
  srcStart: number;
  srcEnd: number;
  /** Substituted text maps as a whole to its `{{…}}` / `${…}`. */
  substituted: boolean;
  origin: Origin;
  /** The environment variable the text came from. */
  envName?: string;
}

export interface Piece {
  text: string;
  origin: Origin;
  envName?: string;
}

export class ExpandedText {
  /**
   * `segments` maps the text back to its source line; without it (most lines: nothing substituted)
   * the text is `source[offset, offset + text.length)` of one origin.
   */
  constructor(
    readonly text: string,
    readonly line: number,
    private readonly segments: Segment[] | undefined,
    private readonly offset = 0,
    private readonly origin: Origin = 'file',
  ) {}

  /** A literal text with an identity map, for text that is not from a source line (suite commands). */
  static literal(text: string, line = 0, origin: Origin = 'file'): ExpandedText {
    return new ExpandedText(text, line, undefined, 0, origin);
  }

  /** The source range of `text[start, end)`. */
  range(start: number, end: number): Range {
    return rangeOf(this.line, this.sourceOffset(start, false), this.sourceOffset(Math.max(start, end), true));
  }

  private sourceOffset(offset: number, isEnd: boolean): number {
    const segments = this.segments;
    if (!segments) return this.offset + Math.min(Math.max(offset, 0), this.text.length);
    // A start offset lies in the last segment starting at or before it; an end offset closes the
    // first segment ending at or after it.
    let low = 0;
    let high = segments.length - 1;
    while (low < high) {
      if (isEnd) {
        const mid = (low + high) >> 1;
        if (segments[mid].to >= offset) high = mid;
        else low = mid + 1;
      } else {
        const mid = (low + high + 1) >> 1;
        if (segments[mid].from <= offset) low = mid;
        else high = mid - 1;
      }
    }
    const segment = segments[low];
    if (segment.substituted) return isEnd ? segment.srcEnd : segment.srcStart;
    return segment.srcStart + Math.min(Math.max(offset - segment.from, 0), segment.to - segment.from);
  }

  /** Where the characters of `text[start, end)` came from. */
  originsIn(start: number, end: number): Set<Origin> {
    const origins = new Set<Origin>();
    if (!this.segments) {
      if (end > 0 && this.text.length > start) origins.add(this.origin);
      return origins;
    }
    for (const segment of this.segments) if (segment.from < end && segment.to > start) origins.add(segment.origin);
    return origins;
  }

  /** The first stretch of text from the environment, with the variable's name (expanded-text offsets). */
  firstFromEnv(): { start: number; end: number; name: string } | undefined {
    const segment = this.segments?.find((candidate) => candidate.origin === 'env');
    return segment ? { start: segment.from, end: segment.to, name: segment.envName ?? '' } : undefined;
  }

  /** True when `text[start, end)` contains substituted text. */
  isSubstituted(start: number, end: number): boolean {
    return this.segments !== undefined && this.segments.some((segment) => segment.substituted && segment.from < end && segment.to > start);
  }

  /** True when some of the text was substituted. */
  get hasSubstitutions(): boolean {
    return this.segments !== undefined && this.segments.some((segment) => segment.substituted);
  }

  pieces(): Piece[] {
    if (!this.segments) return [{ text: this.text, origin: this.origin }];
    return this.segments.map((segment) => ({ text: this.text.slice(segment.from, segment.to), origin: segment.origin, envName: segment.envName }));
  }
}

/** A source line as far as expansion is concerned. */
interface ExpandableLine {
  line: number;
  text: string;
  interpolations: readonly Interpolation[];
}

/**
 * Variables visible in one scope (file, or one scenario over the file). Definitions are visible
 * throughout the scope and may use each other in any order; command-line values override them.
 */
export class VariableScope {
  private readonly memo = new Map<string, Piece[]>();
  private readonly expanding = new Set<string>();

  /**
   * `definitions` are this scope's own; `inherited` (the file's, for a scenario) are visible where
   * the scope does not define the name itself. Values are expanded in this scope.
   */
  constructor(
    private readonly definitions: ReadonlyMap<string, VariableLine>,
    private readonly cliVars: Readonly<Record<string, string>>,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly sink: DiagnosticSink,
    private readonly inherited: ReadonlyMap<string, VariableLine> = new Map(),
    /** Environment variables the user allows into commands (a setting or `--allow-env`, never the file). */
    private readonly allowedEnv: ReadonlySet<string> = new Set(),
  ) {}

  /** A scope inside this one (a scenario inside the file) with its own definitions. */
  inner(definitions: ReadonlyMap<string, VariableLine>): VariableScope {
    const visible = this.inherited.size === 0 ? this.definitions : new Map([...this.inherited, ...this.definitions]);
    return new VariableScope(definitions, this.cliVars, this.env, this.sink, visible, this.allowedEnv);
  }

  /** Expands `line.text[from, to)`, reporting unknown variables and unset environment variables. */
  expand(source: ExpandableLine, from: number, to: number): ExpandedText {
    let substitutes = false;
    for (const ref of source.interpolations) if (ref.start >= from && ref.end <= to) substitutes = true;
    if (!substitutes) return new ExpandedText(source.text.slice(from, to), source.line, undefined, from);
    const parts: string[] = [];
    const segments: Segment[] = [];
    let length = 0;
    const push = (text: string, srcStart: number, srcEnd: number, substituted: boolean, origin: Origin, envName?: string) => {
      if (text.length === 0 && substituted) return;
      segments.push({ from: length, to: length + text.length, srcStart, srcEnd, substituted, origin, envName });
      parts.push(text);
      length += text.length;
    };
    let at = from;
    for (const ref of source.interpolations) {
      if (ref.start < from || ref.end > to) continue;
      if (ref.start > at) push(source.text.slice(at, ref.start), at, ref.start, false, 'file');
      for (const piece of this.valueOf(ref)) push(piece.text, ref.start, ref.end, true, piece.origin, piece.envName);
      at = ref.end;
    }
    if (to > at || segments.length === 0) push(source.text.slice(at, to), at, to, false, 'file');
    return new ExpandedText(parts.join(''), source.line, segments);
  }

  private valueOf(ref: Interpolation): Piece[] {
    if (ref.kind === 'env') {
      const value = this.env[ref.name];
      if (value !== undefined && value !== '') return [{ text: value, origin: this.allowedEnv.has(ref.name) ? 'user-env' : 'env', envName: ref.name }];
      // The default is written in the file, so it counts as file text.
      if (ref.defaultValue !== undefined) return [{ text: ref.defaultValue, origin: 'file' }];
      if (value === undefined) {
        this.sink.error(ref.range, 'unset-env', `environment variable \`${ref.name}\` is not set — set it, or give a default: \`\${env:${ref.name}:-value}\``);
      }
      return [];
    }
    return this.variable(ref.name, ref.nameRange) ?? [];
  }

  /** A variable's expanded value, or undefined (reported) when it is not defined. */
  variable(name: string, usedAt: Range): Piece[] | undefined {
    const cli = this.cliVars[name];
    if (cli !== undefined) return [{ text: cli, origin: 'cli' }];
    const definition = this.definitions.get(name) ?? this.inherited.get(name);
    if (!definition) {
      const known = new Set([...this.inherited.keys(), ...this.definitions.keys()]);
      const suggestion = this.sink.full ? undefined : closest(name, [...known, ...Object.keys(this.cliVars)]);
      if (suggestion) {
        this.sink.error(usedAt, 'unknown-variable', `unknown variable \`${name}\` — did you mean \`${suggestion}\`?`, [replaceFix(usedAt, suggestion)]);
      } else {
        this.sink.error(usedAt, 'unknown-variable', `unknown variable \`${name}\` — define it with \`@${name} = value\` or pass \`--var ${name}=value\``);
      }
      return undefined;
    }
    const cached = this.memo.get(name);
    if (cached) return cached;
    if (this.expanding.has(name)) {
      this.sink.error(usedAt, 'variable-cycle', `variable \`${name}\` refers to itself through \`{{…}}\` — give it a value that does not depend on itself`);
      return [];
    }
    this.expanding.add(name);
    const pieces = this.expand(definition, definition.value.start, definition.value.end).pieces();
    this.expanding.delete(name);
    this.memo.set(name, pieces);
    return pieces;
  }
}
