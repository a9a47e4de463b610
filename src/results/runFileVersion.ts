// The run-file format version, apart from the schema (runFileSchema.ts) so that writing run files does not
// load zod.
export const RUN_FILE_FORMAT_VERSION = 1;
