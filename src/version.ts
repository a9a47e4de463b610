// The tool's version, from package.json (bundled by esbuild, compiled by tsc).
import manifest from '../package.json';

export const TOOL_VERSION: string = manifest.version;
