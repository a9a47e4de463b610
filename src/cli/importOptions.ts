// What `rbench import` was asked: read by the import of run files (import.ts) and of benchmark-spec YAML (importSpec.ts).
export interface ImportCommandOptions {
  files: string[];
  command?: string;
  out: string;
  /** --out was given: the user's own folder, anywhere; otherwise .rbench/runs inside the current folder. */
  outNamed: boolean;
  root: string;
}
