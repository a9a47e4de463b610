// Shaping by NFQUEUE: iptables in the namespace hands every packet to and from the server's port to
// netdelay (bench/netdelay/netdelay.c, built here with gcc), which gives each its verdict after its delay.
// Both directions pass OUTPUT on the loopback once, so a round trip is held twice.
import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { run } from './namespace.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const QUEUE = 7;
// iptables-nft first (Debian's default), the legacy tables where nftables is missing.
const IPTABLES = ['iptables', 'iptables-nft', 'iptables-legacy'];

/** Compiles netdelay.c into `outDir`; returns the binary's path or throws naming the package to install. */
export async function buildDelayer(outDir) {
  if (!existsSync('/usr/include/libnetfilter_queue/libnetfilter_queue.h'))
    throw new Error('netdelay needs the libnetfilter_queue headers: apt-get install -y libnetfilter-queue-dev');
  mkdirSync(outDir, { recursive: true });
  const binary = join(outDir, 'netdelay');
  const gcc = await run('gcc', ['-O2', '-Wall', '-o', binary, join(here, 'netdelay.c'), '-lnetfilter_queue', '-lnfnetlink', '-lm'], { allowFail: true }).catch(
    () => ({ status: -1, stderr: 'gcc not found: apt-get install -y gcc' }),
  );
  if (gcc.status !== 0) throw new Error(`building bench/netdelay/netdelay.c failed: ${gcc.stderr.trim()}`);
  return binary;
}

/** The first iptables that can queue packets inside the namespace, with its version line. */
async function pickIptables(ns, port) {
  const tried = [];
  for (const command of IPTABLES) {
    const rule = ['OUTPUT', '-o', 'lo', '-p', 'tcp', '--dport', String(port), '-j', 'NFQUEUE', '--queue-num', String(QUEUE)];
    const added = await ns.exec(command, ['-A', ...rule], { allowFail: true }).catch((e) => ({ status: -1, stderr: e.message }));
    if (added.status === 0) {
      await ns.exec(command, ['-D', ...rule]);
      const version = await run(command, ['-V'], { allowFail: true });
      return { command, version: version.stdout.trim() };
    }
    tried.push(`${command}: ${added.stderr.trim()}`);
  }
  throw new Error(`no iptables can add an NFQUEUE rule in the namespace (apt-get install -y iptables):\n  ${tried.join('\n  ')}`);
}

export async function startNfqueueShaper(ns, port, { buildDir, realtime = true }) {
  const binary = await buildDelayer(buildDir);
  const iptables = await pickIptables(ns, port);
  const rules = ['--dport', '--sport'].map((side) => ['OUTPUT', '-o', 'lo', '-p', 'tcp', side, String(port), '-j', 'NFQUEUE', '--queue-num', String(QUEUE)]);
  let rulesIn = false;
  let delayer = null;
  let failure = null; // the delayer died with the rules in: the path drops everything, so the run is cut short

  const setRules = async (wanted) => {
    if (wanted === rulesIn) return;
    for (const rule of rules) await ns.exec(iptables.command, [wanted ? '-A' : '-D', ...rule]);
    rulesIn = wanted;
  };
  const stopDelayer = async () => {
    if (!delayer) return null;
    const { child, lines } = delayer;
    delayer = null;
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    return lines.last;
  };
  const startDelayer = async (c) => {
    const args = ['--queue', String(QUEUE), '--delay-ms', String(c.delayMs), '--jitter-ms', String(c.jitterMs), '--loss', String(c.loss)];
    if (realtime) args.push('--rt', '10');
    const child = ns.spawn(binary, args);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    child.on('exit', (code, signal) => {
      if (delayer?.child !== child) return; // stopped on purpose
      failure = `netdelay stopped during the run (${code ?? signal}): ${stderr.trim() || 'no message'}; the shaped path dropped every packet from then on`;
      ns.abortRuns();
    });
    const lines = { last: null, waiting: [] };
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line !== 'ready') lines.last = JSON.parse(line);
      lines.waiting.shift()?.(line);
    });
    const next = () => new Promise((resolve) => lines.waiting.push(resolve));
    const ready = await Promise.race([next(), once(child, 'exit').then(() => null)]);
    if (ready !== 'ready') throw new Error(`netdelay did not start: ${stderr.trim()}`);
    if (stderr) process.stderr.write(`netdelay: ${stderr}`);
    delayer = { child, lines, next };
  };
  /** The delayer's statistics since the last call (SIGUSR1 prints them and starts afresh). */
  const sample = async () => {
    if (failure) throw new Error(failure);
    if (!delayer) return null;
    const line = delayer.next();
    delayer.child.kill('SIGUSR1');
    await line;
    return delayer.lines.last;
  };

  return {
    name: 'nfqueue',
    describe: `NFQUEUE ${QUEUE} → bench/netdelay/netdelay.c${realtime ? ' (SCHED_FIFO)' : ''}, rules by ${iptables.command} (${iptables.version})`,
    /** Shapes the loopback for condition `c` (a new delayer with its parameters; `none` takes the rules out). */
    apply: async (c) => {
      await stopDelayer();
      if (c.shaped) await startDelayer(c);
      await setRules(c.shaped);
    },
    beginRun: sample,
    endRun: sample,
    failure: () => failure,
    close: async () => {
      await setRules(false).catch(() => {});
      await stopDelayer();
    },
  };
}
