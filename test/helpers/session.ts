// Runs every scenario of a text through a RunSession as the CLI and the editor do: resolve, prepare (the
// gates and the consent), execute what was prepared. For tests of what a session lets through.
import type { RunSession, SessionOutcome } from '../../src/runner/session';

export async function runScenarios(session: RunSession, text: string, display = 'scenario.rbench'): Promise<SessionOutcome[]> {
  const file = { display, text, recorded: display };
  const resolved = session.resolve(file);
  const outcomes: SessionOutcome[] = [];
  for (const plan of resolved.scenarios) {
    const prepared = await session.prepare(file, resolved, plan);
    outcomes.push('kind' in prepared ? prepared : await session.execute(prepared));
  }
  return outcomes;
}
