/** One captured command shape as the written scenario sends it; its own file so workload.ts and jobQueues.ts share it without importing each other. */
export interface WorkloadLine {
  /** Share of all the commands captured, 0…1. */
  share: number;
  command: string;
  args: string[];
  /** The source's pattern of the line's first key with an identifier (`stats:__key__`): its key group. */
  pattern?: string;
  /** The distinct clients that sent it, when MONITOR saw it. */
  clients?: number;
}
