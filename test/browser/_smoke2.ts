import { launchBrowser, openPanel, readFixture, firstPaint } from './harness';
(async () => {
  const b = await launchBrowser();
  for (const name of ['finished', 'finished', 'sweep']) {
    const p = await openPanel(b, 'dark');
    const t0 = Date.now();
    await p.post({ type: 'run', run: readFixture(`${name}.rbench-run.json`), path: `/x/${name}.rbench-run.json` } as never);
    console.log(name, await firstPaint(p.page), Date.now() - t0);
    console.log(await p.page.evaluate(() => performance.getEntriesByType('mark').map((m) => `${m.name}@${m.startTime.toFixed(1)}`).join(' ')));
  }
  await b.close();
})().catch((e) => { console.error(e); process.exit(1); });
