// Shaping by netem, where the kernel has it: a netem qdisc on the namespace's loopback holds every packet
// leaving it, so each direction of a round trip is held once. Same conditions as the NFQUEUE delayer
// (netem also draws each packet's delay on its own and lets a packet overtake an earlier one with jitter).

/** Whether netem works here: a probe qdisc on the namespace's loopback, taken out again. */
export async function netemAvailable(ns) {
  const probe = await ns.exec('tc', ['qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms'], { allowFail: true }).catch(() => ({ status: -1 }));
  if (probe.status !== 0) return false;
  await ns.exec('tc', ['qdisc', 'del', 'dev', 'lo', 'root'], { allowFail: true });
  return true;
}

/** The qdisc's packet and drop counters (`tc -s`), for the run's record. */
async function counters(ns) {
  const shown = await ns.exec('tc', ['-s', 'qdisc', 'show', 'dev', 'lo'], { allowFail: true });
  const match = /Sent \d+ bytes (\d+) pkt \(dropped (\d+)/.exec(shown.stdout);
  return match ? { packets: Number(match[1]), lost: Number(match[2]) } : null;
}

export async function startNetemShaper(ns) {
  let shaped = false;
  let before = null;
  return {
    name: 'netem',
    describe: 'netem qdisc on the namespace loopback',
    apply: async (c) => {
      if (!c.shaped) {
        if (shaped) await ns.exec('tc', ['qdisc', 'del', 'dev', 'lo', 'root']);
        shaped = false;
        return;
      }
      const args = ['qdisc', 'replace', 'dev', 'lo', 'root', 'netem', 'limit', '100000', 'delay', `${c.delayMs}ms`];
      if (c.jitterMs > 0) args.push(`${c.jitterMs}ms`, 'distribution', 'normal');
      if (c.loss > 0) args.push('loss', `${c.loss * 100}%`);
      await ns.exec('tc', args);
      shaped = true;
    },
    beginRun: async () => {
      before = shaped ? await counters(ns) : null;
      return before;
    },
    endRun: async () => {
      const after = shaped ? await counters(ns) : null;
      return after && before ? { packets: after.packets - before.packets, lost: after.lost - before.lost } : after;
    },
    close: async () => {
      if (shaped) await ns.exec('tc', ['qdisc', 'del', 'dev', 'lo', 'root'], { allowFail: true });
    },
  };
}
