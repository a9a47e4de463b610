// Reading a server's own command table: `COMMAND INFO name…` for the commands a run sends (or the whole
// table for the editor), `COMMAND` when INFO is refused, `COMMAND DOCS` for the summaries. Reading it is a
// read; a reply that is huge, malformed or refused (ACL) leaves the built-in table in charge, with a warning.
import type { ControlLink } from './controlLink';
import { serverCommandTable, type CommandSpec, type CommandTable } from '../scenario/commandTable';
import { COMMAND_TABLE_LIMITS, CommandTableError, commandDocs, commandSpecs, withDocs } from './commandTableReply';

export type TableRead = { ok: true; table: CommandTable; specs: CommandSpec[] } | { ok: false; warning: string };

export interface TableReadOptions {
  /** The commands to describe (upper or lower case); the whole table when absent. */
  names?: readonly string[];
  /** Also read `COMMAND DOCS` (summaries, since-versions), for the editor's hover. */
  docs?: boolean;
  /** Who the server is, for messages: `redis://10.0.0.5:6379`. */
  display: string;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `COMMAND INFO a b …` (the server answers nil for a name it does not know), or the whole `COMMAND` table. */
async function readSpecs(redis: ControlLink, names: readonly string[] | undefined): Promise<CommandSpec[]> {
  if (names && names.length > COMMAND_TABLE_LIMITS.commands) throw new CommandTableError(`more than ${COMMAND_TABLE_LIMITS.commands} commands to look up`);
  try {
    const reply = await redis.call('COMMAND', 'INFO', ...(names ?? []).map((name) => name.toLowerCase()));
    const specs = commandSpecs(reply);
    // Redis answers one entry per name asked (nil for a command it lacks): any other count is no command table.
    if (names && names.length > 0 && !(Array.isArray(reply) && reply.length === names.length)) {
      throw new CommandTableError(`COMMAND INFO answered ${Array.isArray(reply) ? `${reply.length} entries` : 'no list'} for ${names.length} commands`);
    }
    return specs;
  } catch (error) {
    if (error instanceof CommandTableError) throw error;
    // Servers before 7.0 need names for INFO, and an ACL may allow `COMMAND` but not `COMMAND|INFO`: the whole table, counted first.
    const count = Number(await redis.call('COMMAND', 'COUNT'));
    if (!(count <= COMMAND_TABLE_LIMITS.commands))
      throw new CommandTableError(`the server counts ${count} commands, more than the ${COMMAND_TABLE_LIMITS.commands} RBench reads`);
    const all = commandSpecs(await redis.call('COMMAND'));
    if (!names) return all;
    const wanted = new Set(names.map((name) => name.toLowerCase()));
    return all.filter((spec) => wanted.has(spec.name));
  }
}

/**
 * The server's description of `options.names` (or of every command), as a table that knows exactly what the
 * server described; never throws: on any failure, `ok: false` and the warning to show.
 */
export async function readCommandTable(redis: ControlLink, options: TableReadOptions): Promise<TableRead> {
  let specs: CommandSpec[];
  try {
    specs = await readSpecs(redis, options.names);
    if (options.docs) {
      // COMMAND DOCS is Redis 7's: an older server's table simply has no summaries.
      const docs = await redis.call('COMMAND', 'DOCS', ...(options.names ?? []).map((name) => name.toLowerCase())).then(commandDocs, (error: unknown) => {
        if (error instanceof CommandTableError) throw error;
        return new Map();
      });
      specs = withDocs(specs, docs);
    }
  } catch (error) {
    return {
      ok: false,
      warning: `could not read the command table of ${options.display} (${reason(error)}): checking commands against the built-in table instead`,
    };
  }
  return { ok: true, table: serverCommandTable(`the server ${options.display}`, specs), specs };
}
