// Worker thread that checks `.rbench` text for the editor's diagnostics and outline, and for Run / Run All
// the plans, so no file blocks the extension host (typing, other extensions). Bundled by esbuild to dist/checkWorker.js;
// tsc puts it next to backgroundCheck.js. No `vscode` here.
import { parentPort } from 'node:worker_threads';
import { checkText, type Diagnostic, type ResolvedFile, type ResolveOptions } from '../scenario';
import { checkWithOutline } from '../scenario/features/outline';
import { encodeOutline, type EncodedOutline } from '../scenario/features/outlineCodec';

export interface CheckRequest {
  id: number;
  text: string;
  options: ResolveOptions;
  /** A run's check (Run, Run All): the plans themselves, not the outline. */
  plans?: boolean;
}

export interface CheckReply {
  id: number;
  diagnostics: Diagnostic[];
  /** The outline (for CodeLens, symbols, folding and the Test Explorer) from the same parse, in compact form. */
  outline?: EncodedOutline;
  /** For a request for plans: the plans and diagnostics. */
  resolved?: ResolvedFile;
}

parentPort?.on('message', (request: CheckRequest) => {
  if (request.plans) {
    parentPort!.postMessage({ id: request.id, diagnostics: [], resolved: checkText(request.text, request.options) } satisfies CheckReply);
    return;
  }
  const { diagnostics, outline } = checkWithOutline(request.text, request.options);
  const encoded = encodeOutline(outline);
  parentPort!.postMessage({ id: request.id, diagnostics, outline: encoded } satisfies CheckReply, [encoded.ints.buffer as ArrayBuffer]);
});
