// The training lab's `digits` task (docs/training.md, "Digits";
// docs/format.md §3): real handwritten digits fetched only when the task is
// chosen, a small vision transformer trained from the UI to ≥ 0.85 on the
// held-out images, and the accuracy the lab shows recomputed here from the
// exported model on every held-out image of data/digits/digits.txt with the
// reference of tests/e2e/reference.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openPage, BASE_URL } from './helpers.mjs';
import { reference } from './reference.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const LAB = '[data-lab="train"]';
const attr = (page, name) => page.getAttribute(LAB, name);

/** The shipped digits: [label, 64 pixels] per line (data/digits/README.md). */
const DIGITS = readFileSync(new URL('../../data/digits/digits.txt', import.meta.url), 'utf8')
  .trim().split('\n')
  .map((line) => [Number(line[0]), [...line.slice(2)].map((c) => parseInt(c, 17))]);

const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));

/** The model's logits of [CLS] on an image, computed from the model file:
 * X = F·E + P, each layer X + concat(heads)·W_O, logits = X·W_U. */
function classify(model, pixels) {
  const { config: c, weights: w } = model;
  const p = c.patch ?? 4;
  const per = 8 / p;
  const f = [Array.from({ length: p * p + 1 }, (_, k) => (k === p * p ? 1 : 0))];
  for (let i = 0; i < per * per; i++) {
    const [r0, c0] = [Math.floor(i / per) * p, (i % per) * p];
    const row = [];
    for (let r = 0; r < p; r++) for (let col = 0; col < p; col++) row.push(pixels[(r0 + r) * 8 + c0 + col] / 16);
    f.push([...row, 0]);
  }
  let x = matmul(f, w.embedding).map((row, i) => row.map((v, k) => v + (w.positions ? w.positions[i][k] : 0)));
  if (c.positions === 'sinusoidal') throw new Error('the default model learns its positions');
  const weights = [];
  for (let l = 0; l < c.layers; l++) {
    const heads = Array.from({ length: c.heads }, (_, h) => ({
      w_q: w[`layers[${l}].heads[${h}].w_q`], w_k: w[`layers[${l}].heads[${h}].w_k`], w_v: w[`layers[${l}].heads[${h}].w_v`],
    }));
    const r = reference({ x, heads, w_o: w[`layers[${l}].w_o`], scale: true, mask: 'none' });
    weights.push(r.heads.map((h) => h.weights));
    x = x.map((row, i) => row.map((v, k) => v + r.output[i][k]));
  }
  return { logits: matmul([x[0]], w.unembedding)[0], weights };
}

const argmax = (v) => v.reduce((best, x, i) => (x > v[best] ? i : best), 0);

for (const lang of ['zh', 'en']) {
  test(`digits (${lang}): trained from the UI to ≥ 0.85 held-out accuracy, which the exported model confirms`, async () => {
    const { context, page, problems } = await openPage(browser, { acceptDownloads: true });
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(`${BASE_URL}?lang=${lang}&view=train`);
    await page.waitForSelector(`${LAB}[data-state] [data-control="train"]`, { timeout: 20000 });
    assert.ok(!fetched.some((p) => /\/digits-[0-9a-f]+\.txt$/.test(p)), 'no digits before the task is chosen');
    await page.selectOption(`${LAB} [data-control="task"]`, 'digits');
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.sample?.startsWith('[CLS]'), LAB, { timeout: 20000 });
    assert.ok(fetched.some((p) => /\/digits-[0-9a-f]+\.txt$/.test(p)));
    assert.equal(await attr(page, 'data-sample'), '[CLS] P1 P2 P3 P4');
    assert.equal(await page.$eval(`${LAB} [data-control="patch"]`, (s) => s.value), '4');
    assert.equal(await page.getAttribute(`${LAB} [data-output]`, 'data-output'), 'classification');
    await page.click(`${LAB} .predict .skip`);
    await page.click(`${LAB} [data-speed-button="1.5"]`);
    await page.click(`${LAB} [data-control="train"]`);
    await page.waitForFunction((sel) => Number(document.querySelector(sel).dataset.accuracy) >= 0.85, LAB, { timeout: 60000, polling: 'raf' });
    if ((await attr(page, 'data-state')) === 'training') await page.click(`${LAB} [data-control="train"]`);
    await page.waitForFunction((sel) => ['paused', 'done'].includes(document.querySelector(sel).dataset.state), LAB);
    // Paused, the lab evaluates the model of the step it stopped at (a few
    // steps on, the accuracy moves a little either way).
    const shown = Number(await attr(page, 'data-accuracy'));

    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${LAB} [data-control="export"]`)]);
    const model = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.equal(model.config.task, 'digits');
    assert.equal(String(model.steps), await attr(page, 'data-train-step'));
    // Held out: every sixth image (i % 6 == 5), never trained on.
    const held = DIGITS.filter((_, i) => i % 6 === 5);
    assert.equal(held.length, 299);
    const right = held.filter(([label, px]) => argmax(classify(model, px).logits) === label).length;
    assert.ok(Math.abs(right / held.length - shown) < 1e-12, `the lab shows ${shown}, the model file gives ${right}/${held.length}`);

    // [CLS]'s weights over the first held-out image's patches, per head.
    const [label, px] = held[0];
    assert.equal(await page.getAttribute(`${LAB} [data-figure="patches"]`, 'data-label'), String(label));
    const { weights } = classify(model, px);
    for (let h = 0; h < model.config.heads; h++) {
      const drawn = await page.$$eval(`${LAB} [data-patches-head="1-${h + 1}"] [data-patch]`, (els) => els.map((e) => Number(e.dataset.weight)));
      assert.equal(drawn.length, 4);
      drawn.forEach((v, i) => assert.ok(Math.abs(v - weights[0][h][0][i + 1]) < 1e-12, `head ${h + 1}, patch ${i}: ${v} vs ${weights[0][h][0][i + 1]}`));
    }
    // "Open in the workbench": the image's class token and four patches as rows.
    await page.click(`${LAB} [data-control="open"]`);
    await page.waitForFunction(() => document.querySelectorAll('[data-matrix="x"]:not([data-layer]) [data-col="0"]').length === 5);
    // Patches of side 2: 16 of them and a class token.
    await page.selectOption(`${LAB} [data-control="patch"]`, '2');
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.sample.split(' ').length === 17, LAB);
    assert.equal(await attr(page, 'data-train-step'), '0');
    assert.deepEqual(problems, []);
    await context.close();
  });
}
