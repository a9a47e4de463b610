// Issue 26: the Dockerfile cannot be built here (no registry for base images) and hadolint is not installable,
// so it is linted by parsing it (dockerfile-ast, the parser of VS Code's Docker language server): multi-stage,
// a non-root USER in the final stage, `rbench` as the ENTRYPOINT, no ADD of URLs, pinned base tags, and every
// COPY source (outside --from) present in the repository.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { repoRoot } from '../../helpers/cli';

export interface DockerfileProblem {
  line: number;
  problem: string;
}

/** The problems of a Dockerfile's text against the rules above; `root` is where COPY sources must exist. */
export function dockerfileProblems(text: string, root: string): DockerfileProblem[] {
  const dockerfile = DockerfileParser.parse(text);
  const lines = text.split('\n');
  const problems: DockerfileProblem[] = [];
  const at = (instruction: Instruction) => instruction.getRange().start.line + 1;
  const froms = dockerfile.getFROMs();
  if (froms.length < 2) problems.push({ line: 1, problem: `${froms.length} stage(s): build and runtime must be separate stages` });
  const stages = new Set(froms.map((from) => from.getBuildStage()).filter(Boolean));
  for (const from of froms) {
    const image = from.getImageName();
    const tag = from.getImageTag();
    if (stages.has(image ?? '')) continue;
    if (!tag || tag === 'latest' || !/\d+\.\d+\.\d+/.test(tag))
      problems.push({ line: at(from), problem: `base image ${from.getImage()} is not pinned to a release (name:1.2.3…)` });
  }
  const instructions = dockerfile.getInstructions();
  const lastFrom = froms.at(-1);
  const finalStage = lastFrom ? instructions.filter((i) => at(i) > at(lastFrom)) : [];
  const users = finalStage.filter((i) => i.getKeyword() === 'USER');
  const user = users.at(-1)?.getArguments()[0]?.getValue();
  if (!user || user === 'root' || user === '0' || user.startsWith('0:'))
    problems.push({ line: users.at(-1) ? at(users.at(-1)!) : 1, problem: 'the final stage does not run as a non-root USER' });
  const entrypoint = dockerfile.getENTRYPOINTs().at(-1);
  const entry = entrypoint?.getArgumentsContent() ?? '';
  if (!/^\[\s*"(rbench|node)"/.test(entry) || (entry.includes('"node"') && !entry.includes('cli.js')))
    problems.push({ line: entrypoint ? at(entrypoint) : 1, problem: `the ENTRYPOINT is not rbench in exec form (${entry || 'none'})` });
  for (const instruction of instructions) {
    const keyword = instruction.getKeyword();
    const args = instruction.getArguments().map((arg) => arg.getValue());
    if (keyword === 'ADD' && args.some((arg) => /^[a-z]+:\/\//i.test(arg)))
      problems.push({ line: at(instruction), problem: 'ADD of a URL: fetch nothing at build time that is not pinned' });
    if (keyword === 'ADD') problems.push({ line: at(instruction), problem: 'ADD where COPY does (ADD unpacks archives and fetches URLs)' });
    if (keyword !== 'COPY') continue;
    const sources = args.filter((arg) => !arg.startsWith('--')).slice(0, -1);
    // A COPY --from takes its sources from a stage, not the repository (the parser keeps flags apart from arguments).
    if (/^\s*COPY\s+(--\S+\s+)*--from=/i.test(lines[at(instruction) - 1])) continue;
    for (const source of sources)
      if (!existsSync(join(root, source))) problems.push({ line: at(instruction), problem: `COPY source ${source} is not in the repository` });
  }
  return problems;
}

describe('the Dockerfile (issue 26)', () => {
  const text = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');

  it('is multi-stage, non-root, rbench as the entrypoint, pinned bases, no ADD, every COPY source present', () => {
    assert.deepEqual(dockerfileProblems(text, repoRoot), []);
  });

  it('builds with npm ci and npm run build, and the runtime stage takes only dist/ from the build and production dependencies', () => {
    const [build, runtime] = text.split(/^FROM /m).slice(1);
    assert.match(build, /RUN npm ci\b/);
    assert.match(build, /RUN npm run build/);
    assert.match(runtime, /npm ci --omit=dev --ignore-scripts/);
    assert.deepEqual(
      [...runtime.matchAll(/^COPY --from=\S+ (\S+)/gm)].map((m) => m[1]),
      ['/src/dist'],
    );
  });

  it('the lint catches each broken rule', () => {
    const broken = ['FROM node:latest', 'ADD https://example.com/x.tgz /x', 'COPY no-such-folder ./x', 'USER root', 'ENTRYPOINT node index.js'].join('\n');
    const problems = dockerfileProblems(broken, repoRoot).map((p) => `${p.line}: ${p.problem}`);
    for (const expected of [
      /^1: 1 stage/,
      /^1: base image node:latest is not pinned/,
      /^2: ADD of a URL/,
      /^3: COPY source no-such-folder/,
      /^4: the final stage does not run as a non-root USER/,
      /^5: the ENTRYPOINT is not rbench/,
    ])
      assert.ok(
        problems.some((p) => expected.test(p)),
        `${expected} in ${problems.join('; ')}`,
      );
  });

  it('docs/distributed.md uses the image with rbench as its entrypoint', () => {
    const doc = readFileSync(join(repoRoot, 'docs/distributed.md'), 'utf8');
    assert.match(doc, /docker build -t registry\.example\.com\/rbench:0\.1\.0 \./);
    assert.match(doc, /image: registry\.example\.com\/rbench:0\.1\.0/);
    assert.doesNotMatch(doc, /node \/opt\/rbench\/dist\/cli\.js run/, 'the Job runs `rbench`, the image entrypoint, not a path inside it');
  });
});
