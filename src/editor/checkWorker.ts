// Worker thread that checks `.rbench` text for the editor's diagnostics and outline, so a large file never
// blocks the extension host (typing, other extensions). Bundled by esbuild to dist/checkWorker.js;
// tsc puts it next to backgroundCheck.js. No `vscode` here.
import { parentPort } from 'node:worker_threads';
import type { Diagnostic, ResolveOptions } from '../scenario';
import { checkWithOutline } from '../scenario/features/outline';
import { encodeOutline, type EncodedOutline } from '../scenario/features/outlineCodec';

export interface CheckRequest {
  id: number;
  text: string;
  options: ResolveOptions;
}

export interface CheckReply {
  id: number;
  diagnostics: Diagnostic[];
  /** The outline (for CodeLens, symbols, folding and the Test Explorer) from the same parse, in compact form. */
  outline: EncodedOutline;
}

parentPort?.on('message', (request: CheckRequest) => {
  const { diagnostics, outline } = checkWithOutline(request.text, request.options);
  const encoded = encodeOutline(outline);
  parentPort!.postMessage({ id: request.id, diagnostics, outline: encoded } satisfies CheckReply, [encoded.ints.buffer as ArrayBuffer]);
});
