// Worker thread that checks `.rbench` text for the editor's diagnostics, so a large file never
// blocks the extension host (typing, other extensions). Bundled by esbuild to dist/checkWorker.js;
// tsc puts it next to backgroundCheck.js. No `vscode` here.
import { parentPort } from 'node:worker_threads';
import { checkText, type Diagnostic, type ResolveOptions } from '../scenario';

export interface CheckRequest {
  id: number;
  text: string;
  options: ResolveOptions;
}

export interface CheckReply {
  id: number;
  diagnostics: Diagnostic[];
}

parentPort?.on('message', (request: CheckRequest) => {
  const { diagnostics } = checkText(request.text, request.options);
  parentPort!.postMessage({ id: request.id, diagnostics } satisfies CheckReply);
});
