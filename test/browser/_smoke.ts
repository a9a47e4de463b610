import { launchBrowser, openPanel, readFixture, firstPaint, chartInk } from './harness';
(async () => {
  const b = await launchBrowser();
  for (const name of ['finished', 'snapshot', 'sweep', 'repeat', 'oom']) {
    const p = await openPanel(b, name === 'sweep' ? 'light' : 'dark');
    await p.post({ type: 'run', run: readFixture(`${name}.rbench-run.json`), path: `/x/${name}.rbench-run.json` } as never);
    console.log(name, await firstPaint(p.page), await chartInk(p.page), JSON.stringify(await p.violations()));
    await p.page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
  }
  await b.close();
})().catch((e) => { console.error(e); process.exit(1); });
