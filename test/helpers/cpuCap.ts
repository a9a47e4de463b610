// The CPU a live test gives the processes it starts: a cgroup holding `share` of one core (cgroup v2 cpu.max
// where the cpu controller is on the unified tree, else v1 cpu.cfs_quota_us), or one served first (the
// highest weight: nice alone does not do it, as the scheduler's autogroups share the CPU per session). A
// process enters it itself before it execs (the launcher), or is moved in (add), and all leave when it is
// removed. The condition a test asserts is then made by the test, not hoped for from the machine's load.
// Needs root (the tests run as root here).
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_US = 100_000;
let made = 0;

export interface CpuCap {
  /** A launcher to prefix a command with: the process joins the cgroup, then execs the command. */
  launcher: string[];
  /** Moves a running process (every thread) in. */
  add(pid: number): void;
  remove(): void;
}

function cpuRoot(): { dir: string; v2: boolean } {
  const unified = '/sys/fs/cgroup';
  if (existsSync(join(unified, 'cgroup.controllers')) && readFileSync(join(unified, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu')) {
    return { dir: unified, v2: true };
  }
  if (existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')) return { dir: '/sys/fs/cgroup/cpu', v2: false };
  throw new Error('no cgroup cpu controller to cap a process with (cgroup v2 cpu.max or v1 cpu.cfs_quota_us)');
}

/** A cgroup capped at `share` of one core (0.2: 20 ms of every 100 ms). */
export function cpuCap(share: number): CpuCap {
  return cpuGroup({ share });
}

/** A cgroup served before everything else on the machine (the highest weight, no cap). */
export function cpuFirst(): CpuCap {
  return cpuGroup({});
}

function cpuGroup({ share }: { share?: number }): CpuCap {
  const root = cpuRoot();
  const dir = join(root.dir, `rbench-test-${process.pid}-${made++}`);
  mkdirSync(dir);
  if (root.v2) {
    const control = join(root.dir, 'cgroup.subtree_control');
    if (!readFileSync(control, 'utf8').includes('cpu')) appendFileSync(control, '+cpu');
    if (share !== undefined) writeFileSync(join(dir, 'cpu.max'), `${Math.round(share * PERIOD_US)} ${PERIOD_US}`);
    else writeFileSync(join(dir, 'cpu.weight'), '10000');
  } else if (share !== undefined) {
    writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
    writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(share * PERIOD_US)));
  } else writeFileSync(join(dir, 'cpu.shares'), '262144');
  const procs = join(dir, 'cgroup.procs');
  return {
    launcher: ['sh', '-c', 'echo $$ > "$0" && exec "$@"', procs],
    add: (pid) => writeFileSync(procs, String(pid)),
    remove: () => {
      // Every process left (a server moved in, a test that failed midway) goes back to the root: a cgroup with members cannot go.
      for (const pid of readFileSync(procs, 'utf8').split(/\s+/).filter(Boolean)) {
        try {
          writeFileSync(join(root.dir, 'cgroup.procs'), pid);
        } catch {
          // It ended meanwhile.
        }
      }
      rmdirSync(dir);
    },
  };
}
