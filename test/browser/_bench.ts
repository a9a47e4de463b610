import { readFixture } from './harness';
import { oneHourRun } from './synthetic';
import { buildViewModel } from '../../src/views/model';
for (const name of ['finished', 'sweep', 'repeat']) {
  const run = readFixture<never>(`${name}.rbench-run.json`);
  for (let i = 0; i < 2; i++) { const t = performance.now(); buildViewModel(run); console.log(name, (performance.now() - t).toFixed(1)); }
}
const big = oneHourRun(readFixture('finished.rbench-run.json'));
for (let i = 0; i < 2; i++) { const t = performance.now(); const m = buildViewModel(big); console.log('1h', (performance.now() - t).toFixed(1), m.rows.length, m.timeline?.x.length, m.percentiles?.series.length); }
