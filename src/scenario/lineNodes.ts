// The classes behind the tree's line nodes (src/scenario/syntax.ts): fields assigned once, tokens and
// ranges made only when asked, so that a file of many lines stays cheap to parse.
import { tokenizeArgs, type ArgLex } from './lexer';
import type { Range } from './plan';
import { rangeOf } from './diagnostics';
import type { SettingInfo } from './settings';
import { ArgToken, Token, type DocLine, type Interpolation, type LineBase } from './syntax';

/**
 * What every line has; the kind-specific fields are added by the parser. The fields are assigned,
 * not declared with initializers: one constructor serves several node classes, and defining
 * fields on objects of many classes is slow on a file of many lines.
 */
export class LineNode {
  declare kind: DocLine['kind'];
  /** Zero-based line number. */
  declare readonly line: number;
  /** The whole line, without its line break. */
  declare readonly text: string;
  /** Offsets of the content: after indentation, before a trailing comment. */
  declare readonly contentStart: number;
  declare readonly contentEnd: number;
  declare readonly interpolations: readonly Interpolation[];
  declare comment?: Token;

  constructor(kind: DocLine['kind'], line: number, text: string, contentStart: number, contentEnd: number, interpolations: readonly Interpolation[]) {
    this.kind = kind;
    this.line = line;
    this.text = text;
    this.contentStart = contentStart;
    this.contentEnd = contentEnd;
    this.interpolations = interpolations;
    this.comment = undefined;
  }

  get range(): Range {
    return rangeOf(this.line, 0, this.text.length);
  }
}

/**
 * A line that starts with a keyword (a setting or `expect`). Its keyword and value tokens are made
 * on demand: the resolver reads values from the interpolated text, so only editor features ask.
 */
export class KeywordNode extends LineNode {
  /** Where the keyword ends and the value starts (-1: no value). */
  declare keywordEnd: number;
  declare valueStart: number;

  get keyword(): Token {
    return new Token(this.line, this.text, this.contentStart, this.keywordEnd);
  }

  get value(): Token | undefined {
    return this.valueStart < 0 ? undefined : new Token(this.line, this.text, this.valueStart, this.contentEnd);
  }
}

/** A setting line; its arguments are tokenized on demand too. */
export class SettingNode extends KeywordNode {
  declare setting: SettingInfo;
  /** Set when the line had to be tokenized anyway (it has quotes). */
  declare tokenized?: ArgToken[];

  get args(): ArgToken[] {
    this.tokenized ??= argTokens(this.line, this.text, tokenizeArgs(this.text, this.keywordEnd, this.contentEnd, false, []));
    return this.tokenized;
  }
}

/** A `### name` line; the name's range is computed when asked. */
export class HeaderNode extends LineNode {
  declare name: string;
  declare nameStart: number;

  get nameRange(): Range {
    return rangeOf(this.line, this.nameStart, this.nameStart + this.name.length);
  }
}

/** A command line; like a setting line's, its arguments are tokenized on demand. */
export class CommandNode extends LineNode {
  declare weight?: Token & { percent: number };
  declare commandStart: number;
  declare commandEnd: number;
  declare name: string;
  declare argsStart: number;
  declare tokenized?: ArgToken[];

  get command(): Token {
    return new Token(this.line, this.text, this.commandStart, this.commandEnd);
  }

  get args(): ArgToken[] {
    this.tokenized ??= argTokens(this.line, this.text, tokenizeArgs(this.text, this.argsStart, this.contentEnd, true, []));
    return this.tokenized;
  }
}

export function argTokens(line: number, text: string, lexed: ArgLex[], from = 0): ArgToken[] {
  const tokens: ArgToken[] = [];
  for (let i = from; i < lexed.length; i++) tokens.push(new ArgToken(line, text, lexed[i]));
  return tokens;
}

/** What is known of a line before its node is made (the node's class depends on its kind). */
export type LineFacts = Omit<LineBase, 'range'>;

/** A plain line node of `kind` with kind-specific fields. */
export function become<T extends DocLine>(base: LineFacts, kind: T['kind'], fields: Omit<T, keyof LineBase>): T {
  const node = promote(base, LineNode);
  node.kind = kind;
  return Object.assign(node, fields) as unknown as T;
}

/** `base` as a node of a kind with arguments (a setting or command line). */
export function promote<T extends LineNode>(base: LineFacts, Node: new (...args: ConstructorParameters<typeof LineNode>) => T): T {
  const node = new Node(base.kind, base.line, base.text, base.contentStart, base.contentEnd, base.interpolations);
  if (base.comment) node.comment = base.comment;
  return node;
}
