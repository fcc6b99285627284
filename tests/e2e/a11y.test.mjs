// Accessibility: axe-core on every view (no serious or critical violations),
// keyboard focus is visible, matrices are grids, step changes are announced.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { launch, openPage, ready, shareFragment, TWO_HEADS, BASE_URL } from './helpers.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const VIEWS = [
  '?lang=en',
  '?lang=zh',
  '?lang=en&convention=col&granularity=dot&step=5',
  '?lang=zh&embed=1&view=walkthrough&lock=1',
  '?lang=en&embed=1&view=workbench',
  '?lang=zh&embed=1&view=heatmaps',
  '?lang=en' + shareFragment(TWO_HEADS),
  '?lang=zh&embed=1&view=scaling',
  '?lang=en&embed=1&view=scaling',
  '?lang=zh&embed=1&view=geometry',
  '?lang=en&embed=1&view=scoring',
  '?lang=zh&embed=1&view=positions',
  '?lang=en&embed=1&view=masks' + shareFragment(TWO_HEADS),
  '?lang=zh&embed=1&view=dropout',
  '?lang=en&embed=1&view=cost',
];

for (const view of VIEWS) {
  test(`axe-core finds no serious or critical violation: ${view}`, async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(BASE_URL + view);
    await ready(page);
    // A lab shows its numbers once its question is answered (or skipped).
    if (/view=(scaling|geometry|scoring|positions|masks|dropout|cost)/.test(view)) {
      await page.click('.predict .skip');
      await page.waitForSelector('[data-lab] .verdict');
    }
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => (await window.axe.run(document)).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('keyboard focus is visible, matrices are grids, steps are announced', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  await page.focus('#wt-play');
  const outline = await page.$eval('#wt-play', (el) => getComputedStyle(el).outlineStyle);
  assert.notEqual(outline, 'none', 'a visible focus ring');
  assert.equal(await page.getAttribute('[data-matrix="output"] table', 'role'), 'grid');
  assert.ok(await page.$('[data-matrix="output"] th[scope="row"]'), 'row headers');
  assert.equal(await page.getAttribute('.player-caption', 'aria-live'), 'polite');
  const name = await page.getAttribute('[data-matrix="x"] [data-row="0"][data-col="1"] input', 'aria-label');
  assert.match(name, /x row 1, column 2/);
  assert.deepEqual(problems, []);
  await context.close();
});
