// The tool's version, from package.json (bundled by esbuild, compiled by tsc). A named import: esbuild then
// bundles that one field, not the whole manifest (~28 kB of contributions every start would parse).
import { version } from '../package.json';

export const TOOL_VERSION: string = version;
