// `{{var}}` and `${env:…}` substitution. A line's text is expanded before its values are read; the
// expanded text keeps a map back to the source, so a problem in a substituted value is reported at
// the `{{name}}` that brought it in, and every character knows whether it came from the file, the
// environment or the command line (a password must not come from the file).
import { ownValue } from '../gates/plainData';
import type { Range } from './plan';
import { DiagnosticSink, rangeOf, replaceFix } from './diagnostics';
import type { Interpolation, VariableLine } from './syntax';
import { closest } from './suggest';
import { groupDigits } from './numberText';

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

  /** True when `text[start, end)` contains substituted text. */
  isSubstituted(start: number, end: number): boolean {
    return this.segments !== undefined && this.segments.some((segment) => segment.substituted && segment.from < end && segment.to > start);
  }

  /** Environment variables whose values the rule refused here (left out of `text`, reported). */
  refusedEnv: readonly string[] = [];

  /** True when some of the text was substituted. */
  get hasSubstitutions(): boolean {
    return this.segments !== undefined && this.segments.some((segment) => segment.substituted);
  }

  pieces(): Piece[] {
    if (!this.segments) return [{ text: this.text, origin: this.origin }];
    return this.segments.map((segment) => ({ text: this.text.slice(segment.from, segment.to), origin: segment.origin, envName: segment.envName }));
  }
}

/**
 * How a line's text may leave this machine, for the environment rule: every line's text can (a command is
 * sent, a setting is sent, stored in the run file — the plan is — or names the target, whose host is
 * looked up), so an environment value passes only when the user allowed its variable (`--allow-env NAME`,
 * `rbench.allowEnvInCommands`); else it is refused with the diagnostic `code`, saying it would `goTo`.
 * (`password env:NAME` is no expansion: it names the variable, and the runner reads it.)
 */
export interface EnvUse {
  code: string;
  goTo: string;
}

/** The diagnostic for an environment value refused by `use`, with the ways to allow it. */
export function envRefusal(name: string, goTo: string): string {
  return (
    `the value of the environment variable ${name} would ${goTo} — a file cannot send your environment. ` +
    `If you mean it, allow it yourself: \`rbench run --allow-env ${name}\` or the setting rbench.allowEnvInCommands; for a secret, write \`password env:${name}\``
  );
}

/**
 * Expansion budget: variables that use each other twice per level ("billion laughs") double at each
 * level, so without a cap a 30-line file asks for gigabytes. One value or line may expand to
 * `perValue` units (characters plus pieces of distinct origin), a whole file to `perFile`.
 */
export const EXPANSION_LIMITS = { perValue: 1 << 20, perFile: 16 << 20 };

/** How deep variables may use variables: each level is a stack frame, and thousands would overflow the stack. */
export const MAX_VARIABLE_DEPTH = 100;

/** The units spent on substitution over one file, shared by its scopes. */
class ExpansionBudget {
  used = 0;
  exhausted = false;
}

function formatUnits(units: number): string {
  return units >= 1 << 20 ? `${units / (1 << 20)} MiB` : `${groupDigits(units)} characters`;
}

interface Expansion {
  text: string;
  segments: Segment[];
  /** Set when the value would pass `EXPANSION_LIMITS.perValue` (the text is then cut short). */
  tooLarge: boolean;
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
    private readonly budget = new ExpansionBudget(),
  ) {}

  /** A scope inside this one (a scenario inside the file) with its own definitions. */
  inner(definitions: ReadonlyMap<string, VariableLine>): VariableScope {
    // Without definitions of its own the inner scope sees the same values: share their expansions.
    if (definitions.size === 0) return this;
    const visible = this.inherited.size === 0 ? this.definitions : new Map([...this.inherited, ...this.definitions]);
    return new VariableScope(definitions, this.cliVars, this.env, this.sink, visible, this.allowedEnv, this.budget);
  }

  /**
   * Expands `line.text[from, to)`, reporting unknown variables and unset environment variables. This is
   * where `${env:…}` becomes text, so the environment rule is applied here, for every line: a value whose
   * variable the user did not allow is reported at its reference (the `${env:…}`, or the `{{name}}` that
   * brought it in) and left out of the text, so it reaches no plan, run file, host lookup or server.
   * `use` only words the diagnostic. (Variable definitions are expanded when used, through here.)
   */
  expand(source: ExpandableLine, from: number, to: number, use: EnvUse): ExpandedText {
    let substitutes = false;
    for (const ref of source.interpolations) if (ref.start >= from && ref.end <= to) substitutes = true;
    if (!substitutes) return new ExpandedText(source.text.slice(from, to), source.line, undefined, from);
    // The first reference of each refused variable: one diagnostic per variable and line.
    const refused = new Map<string, Interpolation>();
    const expansion = this.expandRefs(source, from, to, (name, ref) => void (refused.has(name) || refused.set(name, ref)));
    if (expansion.tooLarge) {
      this.sink.error(
        rangeOf(source.line, from, to),
        'expansion-too-large',
        `this line expands \`{{…}}\` to more than ${formatUnits(EXPANSION_LIMITS.perValue)} — use shorter values, or a \`__data__\` placeholder for large payloads`,
      );
    }
    const expanded = new ExpandedText(expansion.text, source.line, expansion.segments);
    for (const [name, ref] of refused) this.sink.error(rangeOf(source.line, ref.start, ref.end), use.code, envRefusal(name, use.goTo));
    expanded.refusedEnv = [...refused.keys()];
    return expanded;
  }

  /** `refuse`: given (a line, not a variable's definition), an environment value not allowed goes to it instead of into the text. */
  private expandRefs(source: ExpandableLine, from: number, to: number, refuse?: (envName: string, ref: Interpolation) => void): Expansion {
    const parts: string[] = [];
    const segments: Segment[] = [];
    let length = 0;
    let tooLarge = false;
    const push = (text: string, srcStart: number, srcEnd: number, substituted: boolean, origin: Origin, envName?: string) => {
      if (text.length === 0 && substituted) return;
      const last = segments[segments.length - 1];
      // Pieces of one `{{…}}` from one origin map to the same source range: one segment is enough.
      if (substituted && last?.substituted && last.srcStart === srcStart && last.origin === origin && last.envName === envName) last.to += text.length;
      else segments.push({ from: length, to: length + text.length, srcStart, srcEnd, substituted, origin, envName });
      parts.push(text);
      length += text.length;
    };
    let at = from;
    for (const ref of source.interpolations) {
      if (ref.start < from || ref.end > to) continue;
      if (ref.start > at) push(source.text.slice(at, ref.start), at, ref.start, false, 'file');
      const pieces = this.budget.exhausted ? [] : this.valueOf(ref);
      for (const piece of pieces) {
        if (refuse && piece.origin === 'env') {
          refuse(piece.envName ?? '', ref);
          continue;
        }
        if (length + segments.length + piece.text.length + 1 > EXPANSION_LIMITS.perValue) {
          tooLarge = true;
          break;
        }
        push(piece.text, ref.start, ref.end, true, piece.origin, piece.envName);
      }
      at = ref.end;
      if (tooLarge) break;
    }
    if (!tooLarge && (to > at || segments.length === 0)) push(source.text.slice(at, to), at, to, false, 'file');
    this.spend(length + segments.length, source.line);
    return {
      text: parts.join(''),
      segments: segments.length > 0 ? segments : [{ from: 0, to: 0, srcStart: from, srcEnd: from, substituted: false, origin: 'file' }],
      tooLarge,
    };
  }

  private spend(units: number, line: number): void {
    const budget = this.budget;
    budget.used += units;
    if (budget.used <= EXPANSION_LIMITS.perFile || budget.exhausted) return;
    budget.exhausted = true;
    this.sink.error(
      rangeOf(line, 0, 0),
      'expansion-budget',
      `\`{{…}}\` substitutions in this file add up to more than ${formatUnits(EXPANSION_LIMITS.perFile)} — from here on they are not expanded; use shorter values, or \`__data__\` placeholders for large payloads`,
    );
  }

  private valueOf(ref: Interpolation): Piece[] {
    if (ref.kind === 'env') {
      // Own properties only: `${env:constructor}` names no variable, not Object.
      const value = ownValue(this.env, ref.name);
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
    const cli = ownValue(this.cliVars, name);
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
    if (this.expanding.size >= MAX_VARIABLE_DEPTH) {
      this.sink.error(
        usedAt,
        'variable-depth',
        `variable \`${name}\` is reached through more than ${MAX_VARIABLE_DEPTH} variables using each other — define it with fewer levels of \`{{…}}\``,
      );
      return [];
    }
    this.expanding.add(name);
    const { value } = definition;
    const expansion = this.expandRefs(definition, value.start, value.end);
    this.expanding.delete(name);
    let pieces = new ExpandedText(expansion.text, definition.line, expansion.segments).pieces();
    if (expansion.tooLarge) {
      // Reported at the definition that crosses the limit; the variables built on it then stay small.
      this.sink.error(
        definition.name.range,
        'expansion-too-large',
        `\`@${name}\` expands to more than ${formatUnits(EXPANSION_LIMITS.perValue)} — a variable may not grow by using others over and over; shorten it or the variables it uses`,
      );
      pieces = [];
    }
    this.memo.set(name, pieces);
    return pieces;
  }
}
