// Lab III: what attention costs. Counts from the engine's
// counting twin, the current scenario computed each way, linear attention
// both ways with the recurrence played at each speed, the KV cache.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, shareFragment, seededScenario, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const lab = '[data-lab="cost"]';
const attr = (page, sel, name) => page.getAttribute(sel, name);

for (const lang of ['zh', 'en']) {
  test(`cost lab (${lang}): the plot, the counts, linear attention both ways, the KV cache`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=cost`);
    await ready(page);
    assert.equal(await page.$(`${lab} svg[data-plot]`), null, 'the numbers wait for an answer');
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector(`${lab} svg[data-plot]`);
    assert.match(await page.textContent(`${lab} .verdict`), lang === 'zh' ? /猜对了/ : /Right/);
    // Four curves of 13 points (n = 1 … 4096) and the scenario's n = 3.
    const curves = await page.$$eval(`${lab} [data-curve]`, (ps) => ps.map((p) => [p.dataset.curve, p.getAttribute('points').split(' ').length]));
    assert.deepEqual(curves, [['dense', 13], ['window', 13], ['lowrank', 13], ['linear', 13]]);
    assert.equal(await attr(page, `${lab} [data-plot] .now`, 'data-n'), '3');
    // Note 004 (n = 3, d_model = 4, d_k = d_v = 3, one head, no W_O):
    // projections 3·4·(3+3+3) = 108, scores and sums 9·(3+3) = 54.
    const madds = (v) => attr(page, `${lab} tr[data-variant="${v}"] [data-madds]`, 'data-madds').then(Number);
    assert.equal(await madds('dense'), 162);
    assert.equal(await attr(page, `${lab} tr[data-variant="dense"] [data-exps]`, 'data-exps'), '9');
    // The window is exact for its mask; the others are approximations.
    assert.equal(Number(await attr(page, `${lab} tr[data-variant="window"] [data-diff]`, 'data-diff')), 0);
    assert.ok(Number(await attr(page, `${lab} tr[data-variant="linear"] [data-diff]`, 'data-diff')) > 0.01);
    // A bigger rank costs more.
    const before = await madds('lowrank');
    await page.fill('#lab-cost-r', '3');
    await page.press('#lab-cost-r', 'Enter');
    await page.waitForFunction((b) => Number(document.querySelector('tr[data-variant="lowrank"] [data-madds]').dataset.madds) !== b, before);
    assert.equal(Number(await attr(page, `${lab} tr[data-variant="lowrank"] [data-diff]`, 'data-diff')) < 1e-12, true, 'r = n is dense');
    // Linear attention: parallel and recurrent agree.
    assert.ok(Number(await attr(page, `${lab} [data-linear-diff]`, 'data-linear-diff')) <= 1e-12);
    const read = (name) => page.$$eval(`${lab} [data-mini="${name}"] td`, (tds) => tds.map((t) => Number(t.dataset.value)));
    assert.deepEqual(await read('parallel'), await read('recurrent'));
    // The recurrence plays position by position at each speed.
    const linear = `${lab} [data-linear]`;
    for (const speed of ['1.5', '0.5', '1']) {
      await page.click(`${linear} .speeds [data-speed="${speed}"]`);
      await page.click(`${linear} .lin-back`);
      await page.click(`${linear} .lin-back`);
      await page.waitForFunction((sel) => document.querySelector(sel).dataset.step === '1', linear);
      await page.click(`${linear} .lin-play`);
      assert.equal(await attr(page, linear, 'data-speed'), speed);
      await page.waitForFunction((sel) => document.querySelector(sel).dataset.step === '2', linear, { timeout: 20000 });
      await page.click(`${linear} .lin-play`);
      await page.waitForFunction((sel) => document.querySelector(sel).dataset.playing === 'false', linear);
    }
    // Its state at position 2 is the sum of two φ(k)vᵀ terms: z has grown.
    const z = await read('z');
    assert.ok(z.every((v) => v > 0));
    // KV cache: every new row has the same bits as recomputing, and costs less from the second token on.
    const rows = await page.$$eval(`${lab} [data-kv-step]`, (rs) => rs.map((r) => [r.dataset.same, ...[...r.querySelectorAll('[data-madds]')].map((t) => Number(t.dataset.madds))]));
    assert.equal(rows.length, 3);
    rows.forEach(([same, cached, full], k) => {
      assert.equal(same, 'true');
      if (k > 0) assert.ok(cached < full, `${cached} < ${full}`);
    });
    // The layer table: at n = 3 < d = 4 attention is the cheaper layer.
    assert.equal(await attr(page, `${lab} [data-cheaper]`, 'data-cheaper'), 'attention');
    // Its slider sets n = 2^v; at n = 4096 > d the recurrent layer is the cheaper.
    for (const [v, n] of [['10', '1024'], ['1', '2'], ['12', '4096']]) {
      await page.$eval('#lab-cost-n', (el, value) => {
        el.value = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, v);
      await page.waitForSelector(`${lab} table[data-layers="${n}"]`);
    }
    assert.equal(await attr(page, `${lab} [data-cheaper]`, 'data-cheaper'), 'rnn');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('cost lab: changing the scenario updates the counts; timing runs one size per task', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  await page.click(`${lab} .predict .skip`);
  await page.waitForSelector(`${lab} [data-counts="3"]`);
  await page.fill('#dim-n', '5');
  await page.press('#dim-n', 'Enter');
  await page.waitForSelector(`${lab} [data-counts="5"]`);
  assert.equal(await attr(page, `${lab} [data-plot] .now`, 'data-n'), '5');
  // n = 5: 5·4·9 + 25·6 = 330.
  assert.equal(await attr(page, `${lab} tr[data-variant="dense"] [data-madds]`, 'data-madds'), '330');
  await page.click(`${lab} .measure`);
  await page.waitForSelector(`${lab} [data-timing="done"]`, { timeout: 60000 });
  const timed = await page.$$eval(`${lab} [data-timed]`, (rs) => rs.map((r) => [r.dataset.timed, Number(r.querySelector('[data-ms]').dataset.ms)]));
  assert.deepEqual(timed.map(([n]) => n), ['16', '64', '256', '512', '1024']);
  timed.forEach(([n, ms]) => assert.ok(ms > 0, `n = ${n}: ${ms} ms`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('cost lab with two heads and W_O: the dense count is the closed form', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
  // n = 6, d_model = 5, h = 2, d_k = d_v = 3, W_O 6 × 5.
  await page.goto(`${BASE_URL}?lang=en&embed=1&view=cost${shareFragment(seededScenario(6, 5, 2, 3, 9, { withWo: true }))}`);
  await ready(page);
  await page.click(`${lab} .predict .skip`);
  const madds = Number(await attr(page, `${lab} tr[data-variant="dense"] [data-madds]`, 'data-madds'));
  // h·n·d·(2·d_k + d_v) + h·n²·(d_k + d_v) + n·h·d_v·d_out
  assert.equal(madds, 2 * 6 * 5 * 9 + 2 * 36 * 6 + 6 * 2 * 3 * 5);
  assert.equal(await attr(page, `${lab} [data-kv-step="5"]`, 'data-same'), 'true');
  assert.deepEqual(problems, []);
  await context.close();
});

test('cost lab on a large scenario: counts only, nothing recomputed every way on each edit', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  for (const [id, v] of [['#dim-d-model', '512'], ['#dim-d-k', '128'], ['#dim-n', '32']]) {
    await page.fill(id, v);
    await page.press(id, 'Enter');
    await page.waitForFunction(([sel, val]) => document.querySelector(sel).value === val, [id, v]);
  }
  await page.click(`${lab} .predict .skip`);
  await page.waitForSelector(`${lab} [data-counts="32"]`);
  assert.ok(await page.$(`${lab} [data-counts-only]`));
  // n = 32, d_model = 512, d_k = 128, d_v = 3, one head: 32·512·(2·128 + 3) + 32²·(128 + 3).
  assert.equal(await attr(page, `${lab} tr[data-variant="dense"] [data-madds]`, 'data-madds'), String(32 * 512 * 259 + 1024 * 131));
  assert.equal(await page.$(`${lab} [data-side]`), null);
  assert.equal(await page.$(`${lab} [data-kv-step]`), null);
  assert.deepEqual(problems, []);
  await context.close();
});
