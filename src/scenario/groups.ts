// Command groups: `group [NAME]` … `end` makes the command lines between them one request unit, and a
// `MULTI` … `EXEC` inside one a transaction. This module reads the group lines of one section (a scenario
// head or a phase) and checks the transaction's shape; the resolver turns a group into one test.
import type { CommandTemplate, Range, TextFix } from './plan';
import type { DiagnosticSink } from './diagnostics';
import { rangeOf } from './diagnostics';
import type { DocLine, SettingLine } from './syntax';

const GROUP_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:+-]*$/;
/** How `rbench format` indents a group's lines. */
export const GROUP_INDENT = '  ';

export interface GroupItem {
  kind: 'group';
  name: string;
  transaction: boolean;
  commands: CommandTemplate[];
  /** The `group` line's content. */
  range: Range;
}

/** A group being read: from its `group` line to its `end`. */
interface OpenGroup {
  line: SettingLine;
  name?: string;
  commands: CommandTemplate[];
}

/** Tracks the group lines of one section, in order. */
export class GroupReader {
  private open: OpenGroup | undefined;

  constructor(private readonly sink: DiagnosticSink) {}

  /** True between a `group` line and its `end`. */
  get inside(): boolean {
    return this.open !== undefined;
  }

  /** A `group` or `end` line; returns the finished group at `end`. */
  read(line: SettingLine): GroupItem | undefined {
    if (line.setting.kind === 'group') {
      this.start(line);
      return undefined;
    }
    return this.end(line);
  }

  /** A command line inside the group (weights have no meaning there). */
  add(template: CommandTemplate, weight: DocLine & { kind: 'command' }): void {
    if (weight.weight) {
      this.sink.error(
        weight.weight.range,
        'weight-in-group',
        'a command in a group has no weight: the group sends all its commands every time — remove the weight',
      );
    }
    this.open!.commands.push(template);
  }

  /** A line a group cannot hold (a setting, a suite). */
  refuse(line: DocLine & { kind: 'setting' | 'expect' }): void {
    this.sink.error(
      line.keyword.range,
      'setting-in-group',
      `\`${line.keyword.text}\` cannot be inside a group (line ${this.open!.line.line + 1}): a group holds command lines only — move it above the \`group\` line`,
    );
  }

  /** The end of the section: a group still open is an error (its commands still count, so no other error follows). */
  finish(): GroupItem | undefined {
    if (!this.open) return undefined;
    this.sink.error(this.open.line.keyword.range, 'unclosed-group', 'this group has no `end` — add an `end` line after its last command');
    return this.end(undefined);
  }

  private start(line: SettingLine): void {
    if (this.open) {
      this.sink.error(
        line.keyword.range,
        'nested-group',
        `groups cannot be nested: the group on line ${this.open.line.line + 1} is still open — add \`end\` above this line`,
      );
      return;
    }
    const [name, extra] = line.args;
    if (extra)
      this.sink.error(rangeOf(line.line, extra.start, line.contentEnd), 'invalid-group-name', 'a group name is one word — remove the rest or join it with `-`');
    if (name && !GROUP_NAME.test(name.value)) {
      this.sink.error(name.range, 'invalid-group-name', `\`${name.value}\` is not a group name — use letters, digits, \`_\`, \`-\`, \`.\`, \`:\` and \`+\``);
    }
    this.open = { line, name: name?.value, commands: [] };
  }

  private end(line: SettingLine | undefined): GroupItem | undefined {
    const group = this.open;
    if (!group) {
      if (line)
        this.sink.error(
          line.keyword.range,
          'end-without-group',
          '`end` closes a command group, but none is open — add a `group` line above the commands, or remove this line',
        );
      return undefined;
    }
    this.open = undefined;
    if (line && line.args.length > 0)
      this.sink.error(
        rangeOf(line.line, line.args[0].start, line.contentEnd),
        'invalid-group-end',
        '`end` takes nothing after it — remove the rest of the line',
      );
    if (group.commands.length === 0) {
      this.sink.error(group.line.keyword.range, 'empty-group', 'this group has no commands — add command lines between `group` and `end`');
      return undefined;
    }
    const transaction = checkTransaction(group.commands, this.sink);
    return {
      kind: 'group',
      name: group.name ?? group.commands.map((command) => command.label).join('+'),
      transaction,
      commands: group.commands,
      range: rangeOf(group.line.line, group.line.contentStart, group.line.contentEnd),
    };
  }
}

/**
 * MULTI opens a transaction and EXEC or DISCARD closes it, once each, in this order; WATCH may come before
 * MULTI (inside one the server refuses it). True when the group holds a transaction.
 */
function checkTransaction(commands: CommandTemplate[], sink: DiagnosticSink): boolean {
  let multi: CommandTemplate | undefined;
  let transaction = false;
  const at = (command: CommandTemplate) => command.source ?? rangeOf(0, 0, 0);
  for (const command of commands) {
    switch (command.name) {
      case 'MULTI':
        if (multi)
          sink.error(
            at(command),
            'nested-multi',
            `a transaction is already open (MULTI on line ${at(multi).start.line + 1}) — the server would answer "ERR MULTI calls can not be nested"; end it with EXEC first`,
          );
        else multi = command;
        transaction = true;
        break;
      case 'EXEC':
      case 'DISCARD':
        if (!multi)
          sink.error(
            at(command),
            'transaction-without-multi',
            `\`${command.name}\` needs a \`MULTI\` before it in the group — the server would answer "ERR ${command.name} without MULTI"`,
          );
        multi = undefined;
        break;
      case 'WATCH':
        if (multi)
          sink.error(
            at(command),
            'watch-in-multi',
            '`WATCH` inside MULTI is refused by the server ("ERR WATCH inside MULTI is not allowed") — put it before `MULTI`',
          );
        break;
    }
  }
  if (multi) sink.error(at(multi), 'multi-without-exec', "this transaction is never closed — add `EXEC` (or `DISCARD`) before the group's `end`");
  return transaction;
}

/** True when line number `line` sits inside a group among `lines` (one section): a `group` above it, not yet ended. */
export function insideGroup(lines: readonly DocLine[], line: number): boolean {
  let open = false;
  for (const candidate of lines) {
    if (candidate.line >= line) break;
    if (candidate.kind === 'setting' && candidate.setting.kind === 'group') open = true;
    else if (candidate.kind === 'setting' && candidate.setting.kind === 'end') open = false;
  }
  return open;
}

/** A `group` … `end` block as written (for the outline and folding): its lines and its commands' names. */
export interface GroupBlock {
  line: SettingLine;
  end: SettingLine;
  commands: string[];
}

/** The closed groups among `lines` (a scenario's), in order; a group cut off by a phase line or left open is none. */
export function groupBlocks(lines: readonly DocLine[]): GroupBlock[] {
  const blocks: GroupBlock[] = [];
  let open: { line: SettingLine; commands: string[] } | undefined;
  for (const line of lines) {
    if (line.kind === 'setting' && line.setting.kind === 'group') open = { line, commands: [] };
    else if (line.kind === 'command') open?.commands.push(line.name);
    else if (line.kind === 'setting' && line.setting.kind === 'end') {
      if (open) blocks.push({ ...open, end: line });
      open = undefined;
    } else if (line.kind === 'phase') open = undefined;
  }
  return blocks;
}

/**
 * A quick fix for a loose `MULTI` (lines[index]): put it and the lines up to its EXEC or DISCARD into a group.
 * None when something other than commands, comments and blank lines sits between them, or nothing closes it.
 */
export function groupTransactionFix(lines: readonly DocLine[], index: number): TextFix | undefined {
  const multi = lines[index];
  for (let i = index + 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.kind === 'command' && (line.name === 'EXEC' || line.name === 'DISCARD')) {
      const body = lines.slice(index, i + 1).map((each) => (each.kind === 'blank' ? '' : GROUP_INDENT + each.text.trim()));
      return {
        title: 'Put the transaction in a command group',
        range: { start: { line: multi.line, character: 0 }, end: { line: line.line, character: line.text.length } },
        newText: ['group', ...body, 'end'].join('\n'),
      };
    }
    if ((line.kind === 'command' && line.name === 'MULTI') || (line.kind !== 'command' && line.kind !== 'comment' && line.kind !== 'blank')) return undefined;
  }
  return undefined;
}
