// Kept apart from the schema (runFileSchema.ts), so that writing run files does not load zod.

/** The run-file format this RBench writes and reads (see docs/run-file.md, "Versions"). */
export const RUN_FILE_FORMAT_VERSION = 1;
