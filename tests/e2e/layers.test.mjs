// Stacked layers (docs/format.md §1b, §3): a second layer built from the
// workbench, an edit in layer 1 reaching layer 2 and the output, the model
// view's maps against the `weights` matrices, the induction preset's
// prediction without layer 1, the stage's hand-over from layer 1 to 2.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, readMatrix, assertClose, BASE_URL, shareFragment } from './helpers.mjs';
import { referenceStack } from './reference.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const scenarioOf = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('attention-lab.scenario')));
const cellInput = (name, layer, head, r, c) =>
  `[data-matrix="${name}"][data-layer="${layer}"]${head ? `[data-head="${head}"]` : ''} [data-row="${r}"][data-col="${c}"] input`;

for (const lang of ['en', 'zh']) {
  test(`${lang}: a second layer from the workbench; an edit in layer 1 reaches layer 2 and the output`, async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(BASE_URL + `?lang=${lang}`);
    await ready(page);
    assert.equal(await page.$('[data-layer]'), null, 'one layer: no data-layer');
    await page.click('[data-control="add-layer"]');
    await page.waitForSelector('[data-matrix="weights"][data-layer="2"][data-head="1"] [data-value]');
    // Layer 1's matrices come first and carry data-layer="1".
    const layers = await page.$$eval('[data-matrix][data-layer]', (els) => els.map((e) => Number(e.dataset.layer)));
    assert.ok(layers.length > 0 && layers.every((l, i) => i === 0 || l >= layers[i - 1]), `${layers}`);
    assert.equal(layers[0], 1);
    // Every number on the page is the reference's, layer by layer.
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('attention-lab.scenario') ?? '{}').stack?.length === 1);
    let s = await scenarioOf(page);
    let ref = referenceStack(s);
    assertClose(assert, await readMatrix(page, '[data-matrix="weights"][data-layer="2"][data-head="1"]'), ref.layers[1].heads[0].weights, 1e-12, 'layer 2 weights');
    assertClose(assert, await readMatrix(page, '[data-matrix="x"][data-layer="2"]'), ref.layers[0].layer_output, 1e-12, 'X₂ = O₁');
    assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), ref.output, 1e-12, 'output = O₂');
    const before2 = await readMatrix(page, '[data-matrix="weights"][data-layer="2"][data-head="1"]');
    const beforeOut = await readMatrix(page, '[data-matrix="output"]');
    // Edit W_Q of layer 1.
    const sel = cellInput('w_q', 1, 1, 0, 0);
    await page.click(sel);
    await page.fill(sel, '2.5');
    await page.press(sel, 'Enter');
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('attention-lab.scenario')).heads[0].w_q[0][0] === 2.5);
    s = await scenarioOf(page);
    ref = referenceStack(s);
    const after2 = await readMatrix(page, '[data-matrix="weights"][data-layer="2"][data-head="1"]');
    assertClose(assert, after2, ref.layers[1].heads[0].weights, 1e-12, 'layer 2 weights after the edit');
    assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), ref.output, 1e-12, 'output after the edit');
    assert.notDeepEqual(after2, before2, 'layer 2 reads what layer 1 wrote');
    assert.notDeepEqual(await readMatrix(page, '[data-matrix="output"]'), beforeOut);
    // The residual on layer 2: refused (h·d_v ≠ its input's width)
    // or computed as O₂ = X₂ + B₂, never a wrong number.
    await page.click('#layer-2-w-o');
    await page.waitForSelector('[data-matrix="w_o"][data-layer="2"]');
    await page.click('#layer-2-residual');
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('attention-lab.scenario')).stack[0].residual === true);
    ref = referenceStack(await scenarioOf(page));
    assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), ref.output, 1e-12, 'output with the residual');
    assertClose(assert, await readMatrix(page, '[data-matrix="layer_output"][data-layer="1"]'), ref.layers[0].layer_output, 1e-12, 'O₁');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${lang}: the induction preset votes B, and not once layer 1 is removed; the model view's maps are the weights`, async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(BASE_URL + `?lang=${lang}`);
    await ready(page);
    await page.selectOption('#preset', 'induction');
    await page.waitForSelector('[data-matrix="w_q"][data-layer="2"]');
    assert.equal(await page.getAttribute('[data-prediction]', 'data-prediction'), 'B');
    // The stage says which layer it walks.
    assert.ok(await page.$('[data-figure="stage"] [data-stage-layer="1"]'));
    // The model view: L × h maps, each map's cells the weights matrices.
    const maps = await page.$$eval('[data-model-view] canvas[data-heatmap]', (c) => c.map((x) => `${x.dataset.layer}:${x.dataset.heatmap}`));
    assert.deepEqual(maps, ['1:1', '2:1']);
    for (const layer of [1, 2]) {
      const weights = await readMatrix(page, `[data-matrix="weights"][data-layer="${layer}"][data-head="1"]`);
      const canvas = `[data-model-view] canvas[data-layer="${layer}"]`;
      const box = await page.$eval(canvas, (c) => { c.scrollIntoView(); const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, cell: Number(c.dataset.cell), left: Number(c.dataset.left), top: Number(c.dataset.top) }; });
      for (const [q, k] of [[4, 1], [1, 0], [2, 2]]) {
        await page.mouse.move(box.x + box.left + (k + 0.5) * box.cell, box.y + box.top + (q + 0.5) * box.cell);
        await page.waitForSelector(`${canvas} ~ div .heat-tip[data-query="${q}"][data-key="${k}"]`);
        const v = Number(await page.$eval(`${canvas} ~ div .heat-tip`, (t) => t.dataset.value));
        assert.equal(v, weights[q][k], `layer ${layer} (${q}, ${k})`);
        // Hovering outlines the same query in every map.
        assert.equal(await page.getAttribute('[data-model-view]', 'data-hover-query'), String(q));
      }
    }
    // Predict, then see: without layer 1 the last A does not find B.
    await page.click('[data-predict] [data-answer="no"]');
    const reveal = await page.waitForSelector('[data-predict] .reveal');
    assert.equal(await reveal.getAttribute('data-correct'), 'true');
    await page.click('[data-layer-controls="1"] [data-control="remove-layer"]');
    await page.waitForFunction(() => !document.querySelector('[data-layer="2"]'));
    assert.notEqual(await page.getAttribute('[data-prediction]', 'data-prediction'), 'B');
    assert.equal(await page.$('[data-model-view]'), null, 'one layer: the per-head view');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

/** The hand-over figure's cells `data-ho` (first rows and columns shown), as rows. */
async function handoverCells(page, which) {
  return page.$eval(`[data-figure="stage"] [data-ho="${which}"]`, (fig) => {
    const rows = [];
    for (const cell of fig.querySelectorAll('[data-row][data-col]')) {
      (rows[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.dataset.value);
    }
    return rows;
  });
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: the stage walks layer 1, hands over (the residual, then O₁ becomes X₂) and walks layer 2`, async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(BASE_URL + `?lang=${lang}`);
    await ready(page);
    await page.selectOption('#preset', 'induction');
    await page.waitForSelector('[data-figure="stage"] [data-stage-layer="1"]');
    // The save follows the edit's frame: read the preset once it is stored.
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('attention-lab.scenario') ?? '{}').stack?.length === 1);
    const s = await page.evaluate(() => JSON.parse(localStorage.getItem('attention-lab.scenario')));
    const ref = referenceStack(s);
    const total = Number(await page.getAttribute('[data-figure="stage"]', 'data-steps'));
    // Step forward until the hand-over: the step counter counts on.
    let step = 1;
    while (!(await page.$('[data-figure="stage"] [data-handover-beat]'))) {
      await page.click('#wt-fwd');
      step += 1;
      await page.waitForSelector(`[data-figure="stage"][data-step="${step}"]`);
      assert.ok(step < total, 'a hand-over before the end');
    }
    assert.equal(await page.getAttribute('[data-handover-beat]', 'data-handover-beat'), 'residual');
    assert.equal(await page.getAttribute('[data-stage-layer]', 'data-handover'), '1');
    const head = (m) => m.slice(0, 5).map((r) => r.slice(0, 10));
    assert.deepEqual(await handoverCells(page, 'input'), head(ref.layers[0].input));
    assert.deepEqual(await handoverCells(page, 'attention'), head(ref.layers[0].output.map((r) => r.slice())));
    assertClose(assert, await handoverCells(page, 'output'), head(ref.layers[0].layer_output), 1e-12, 'O₁ = X₁ + B₁');
    await page.click('#wt-fwd');
    await page.waitForSelector('[data-handover-beat="becomes"]');
    assertClose(assert, await handoverCells(page, 'next'), head(ref.layers[1].input), 1e-12, 'X₂');
    await page.click('#wt-fwd');
    await page.waitForSelector('[data-figure="stage"] [data-stage-layer="2"]:not([data-handover])');
    assert.equal(await page.$('[data-handover-beat]'), null);
    // Layer 2's first step draws its real input, X₂ = O₁.
    const shown = await page.$$eval('[data-figure="stage"] svg [data-value]', (els) => els.map((e) => Number(e.dataset.value)));
    const o1 = ref.layers[0].layer_output.flat();
    assert.ok(shown.length > 0 && shown.every((v) => o1.includes(v)), 'the stage shows layer 2 reading O₁');
    // The caption names the layer.
    assert.match(await page.textContent('.player-caption'), lang === 'en' ? /Layer 2/ : /第 2 层/);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('an embedded stage of the two-layer preset stays within 640 px at 700 px wide, in every beat', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  await page.selectOption('#preset', 'induction');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('attention-lab.scenario') ?? '{}').stack?.length === 1);
  const s = await page.evaluate(() => JSON.parse(localStorage.getItem('attention-lab.scenario')));
  for (const lang of ['en', 'zh']) {
    await page.goto(BASE_URL + `?embed=1&view=walkthrough&lock=1&lang=${lang}` + shareFragment(s));
    await page.waitForSelector('[data-figure="stage"] svg [data-value]');
    const total = Number(await page.getAttribute('[data-figure="stage"]', 'data-steps'));
    let tallest = 0;
    for (let step = 1; step <= total; step++) {
      if (step > 1) {
        await page.click('#wt-fwd');
        await page.waitForSelector(`[data-figure="stage"][data-step="${step}"]`);
      }
      tallest = Math.max(tallest, await page.evaluate(() => Math.ceil(document.querySelector('main').getBoundingClientRect().height)));
    }
    assert.ok(tallest <= 640, `${lang}: ${tallest}px`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
