// Ctrl-C (and SIGTERM) while a command works: the first one aborts the work, which ends by saving what it
// has; a second one leaves at once. One handler for `rbench run` and `rbench capture`.
import { ExitCode, type Output } from './output';

/** Runs `work` with a signal that the first Ctrl-C aborts (after saying `cancelling` on stderr); a second exits. */
export async function whileInterruptible<T>(output: Output, cancelling: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    if (++interrupts > 1) process.exit(ExitCode.Cancelled);
    output.error(cancelling);
    abort.abort();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    return await work(abort.signal);
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}
