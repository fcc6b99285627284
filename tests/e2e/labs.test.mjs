// The concept labs: each at view=NAME in both languages,
// with data-lab="NAME", predict-then-reveal, and its numbers reacting to
// its controls.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

for (const lang of ['zh', 'en']) {
  test(`scaling lab (${lang}): predict, reveal, and the histogram follows d_k`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=scaling`);
    await ready(page);
    const lab = '[data-lab="scaling"]';
    // The numbers wait for an answer.
    assert.equal(await page.$(`${lab} svg[data-hist]`), null);
    await page.click(`${lab} [data-answer="0"]`);
    await page.waitForSelector(`${lab} svg[data-hist="raw"]`);
    assert.match(await page.textContent(`${lab} .verdict`), lang === 'zh' ? /猜对了/ : /Right/);
    const variance = (which) => page.getAttribute(`${lab} svg[data-hist="${which}"]`, 'data-variance').then(Number);
    // d_k = 64 by default: variance near 64, near 1 after scaling.
    assert.ok(Math.abs((await variance('raw')) / 64 - 1) < 0.15, String(await variance('raw')));
    assert.ok(Math.abs((await variance('scaled')) - 1) < 0.15);
    const bars = () => page.$$eval(`${lab} svg[data-hist="raw"] rect`, (rs) => rs.map((r) => r.getAttribute('height')).join());
    const before = await bars();
    await page.fill('#lab-dk', '4');
    await page.press('#lab-dk', 'Enter');
    await page.waitForFunction(() => Number(document.querySelector('svg[data-hist="raw"]').dataset.variance) < 10);
    assert.ok(Math.abs((await variance('raw')) / 4 - 1) < 0.15, String(await variance('raw')));
    assert.notEqual(await bars(), before);
    assert.equal(await page.getAttribute(`${lab} tr.now`, 'data-dk'), '4');
    // Bad input: a message where it was typed, the last good value stays.
    await page.fill('#lab-dk', '1000');
    await page.press('#lab-dk', 'Enter');
    await page.waitForSelector('#lab-dk[aria-invalid="true"]');
    assert.ok(Math.abs((await variance('raw')) / 4 - 1) < 0.15);
    assert.ok((await page.textContent(`${lab} [role="alert"]`)).includes('512'));
    // Unscaled, the largest weight grows with d_k; scaled it stays put.
    const cell = (dk, col) => page.$eval(`${lab} tr[data-dk="${dk}"] td:nth-of-type(${col})`, (td) => Number(td.textContent));
    assert.ok((await cell(256, 1)) > (await cell(4, 1)) + 0.2);
    assert.ok(Math.abs((await cell(256, 2)) - (await cell(4, 2))) < 0.1);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('the labs are on the full page, after the workbench', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  // The labs' chunk loads after the page's first paint: wait for it.
  assert.ok(await page.waitForSelector('.labs [data-lab="scaling"]'));
  const after = await page.evaluate(() => {
    const w = document.querySelector('.workbench');
    const l = document.querySelector('[data-lab="scaling"]');
    return Boolean(w.compareDocumentPosition(l) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  assert.ok(after);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const lang of ['zh', 'en']) {
  test(`geometry lab (${lang}): dragging or nudging a vector changes the score and the weights`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=geometry`);
    await ready(page);
    const lab = '[data-lab="geometry"]';
    assert.equal(await page.$(`${lab} svg.plane`), null, 'the picture waits for an answer');
    await page.click(`${lab} [data-answer="0"]`);
    await page.waitForSelector(`${lab} svg.plane`);
    assert.match(await page.textContent(`${lab} .verdict`), lang === 'zh' ? /不对/ : /Not quite/);
    const score = () => page.getAttribute(`${lab} [data-score]`, 'data-score').then(Number);
    const weight = (j) => page.getAttribute(`${lab} [data-weight="${j}"]`, 'data-value').then(Number);
    // The opening picture: q·k² = 4 and k² has the most weight.
    assert.equal(await score(), 4);
    assert.ok((await weight(2)) > (await weight(1)));
    // Drag k² to point away from q: its score falls below 0, k¹ wins.
    const handle = await page.$(`${lab} [data-vec="k2"]`);
    const b = await handle.boundingBox();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x - 60, b.y + 80, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => Number(document.querySelector('[data-score]').dataset.score) < 0);
    assert.ok((await weight(1)) > (await weight(2)));
    const sum = (await weight(1)) + (await weight(2)) + (await weight(3));
    assert.ok(Math.abs(sum - 1) < 1e-12, String(sum));
    // The keyboard moves q: one step right changes q·k by k_x / 10.
    const before = await score();
    await page.focus(`${lab} [data-vec="q"]`);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((s) => Number(document.querySelector('[data-score]').dataset.score) !== s, before);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

for (const lang of ['zh', 'en']) {
  test(`scoring lab (${lang}): three ways side by side, the dot product as the engine, editable additive parameters`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=scoring`);
    await ready(page);
    const lab = '[data-lab="scoring"]';
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector(`${lab} [data-way="additive"]`);
    assert.match(await page.textContent(`${lab} .verdict`), lang === 'zh' ? /猜对了/ : /Right/);
    const read = (way, m) => page.$$eval(`${lab} [data-way="${way}"] [data-mini="${m}"] td`, (tds) => tds.map((t) => Number(t.dataset.value)));
    // Note 004 (no scaling): the dot product's weights are the exact softmax
    // of the note's scores: row 1 = 0.0634, 0.4683, 0.4683.
    const w = await read('dot', 'weights');
    assert.ok(Math.abs(w[0] - 0.0634) < 1e-4 && Math.abs(w[1] - 0.4683) < 1e-4, String(w.slice(0, 3)));
    // Scaling keeps each row's strongest key.
    const s = await read('scaled', 'weights');
    for (let i = 0; i < 3; i++) {
      const row = (a) => a.slice(3 * i, 3 * i + 3);
      const arg = (r) => r.indexOf(Math.max(...r));
      assert.equal(arg(row(s)), arg(row(w)), `row ${i}`);
    }
    // Editing the additive network changes its scores; bad text is refused in place.
    const before = (await read('additive', 'scores')).join();
    const cell = `${lab} [data-param="W_a"] [data-row="0"][data-col="0"] input`;
    await page.fill(cell, '3');
    await page.press(cell, 'Enter');
    await page.waitForFunction((b) => [...document.querySelectorAll('[data-way="additive"] [data-mini="scores"] td')].map((t) => Number(t.dataset.value)).join() !== b, before);
    await page.fill(cell, 'abc');
    await page.press(cell, 'Enter');
    await page.waitForSelector(`${cell}[aria-invalid="true"]`);
    assert.ok(await page.$(`${lab} [role="alert"]`));
    assert.equal(await page.getAttribute(`${lab} [data-param="W_a"] [data-row="0"][data-col="0"]`, 'data-value'), '3');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('scoring lab in the column layout: one query per column, the same numbers', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
  await page.goto(`${BASE_URL}?lang=en&embed=1&view=scoring&convention=col`);
  await ready(page);
  await page.click('[data-lab="scoring"] .predict .skip');
  const first = await page.$$eval('[data-way="dot"] [data-mini="weights"] tr:first-child td', (tds) => tds.map((t) => [t.dataset.row, t.dataset.col, Number(t.dataset.value)]));
  assert.deepEqual(first.map((x) => x.slice(0, 2)), [['0', '0'], ['1', '0'], ['2', '0']]);
  // Column 1 is query 1's weights: 0.0634, 0.4683, 0.4683 (note 004).
  const col1 = await page.$$eval('[data-way="dot"] [data-mini="weights"] td[data-row="0"]', (tds) => tds.map((t) => Number(t.dataset.value)));
  assert.ok(Math.abs(col1[0] - 0.0634) < 1e-4 && Math.abs(col1[2] - 0.4683) < 1e-4, String(col1));
  assert.match(await page.textContent('[data-way="dot"] .formula'), /\(kʲ\)ᵀqⁱ/);
  assert.deepEqual(problems, []);
  await context.close();
});
