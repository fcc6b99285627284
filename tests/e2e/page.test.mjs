// The first real page: the default worked example, share links,
// broken links, languages, and a clean console.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, readMatrix, shot, switchLanguage, shareFragment, assertClose, BASE_URL } from './helpers.mjs';
import { reference } from './reference.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Note 004's numbers, typed from the note: its values and its scores.
const NOTE_VALUES = [[1, 2, 3], [2, 8, 0], [2, 6, 3]];
const NOTE_SCORES = [[2, 4, 4], [4, 16, 12], [4, 12, 10]];
function noteOutputs() {
  // Exact softmax of each score row (no scaling, as in the note), times V.
  return NOTE_SCORES.map((row) => {
    const e = row.map((s) => Math.exp(s));
    const z = e.reduce((a, b) => a + b, 0);
    return [0, 1, 2].map((c) => e.reduce((acc, w, j) => acc + (w / z) * NOTE_VALUES[j][c], 0));
  });
}

test('the default page shows note 004 and its exact outputs', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  assert.deepEqual(await readMatrix(page, '[data-matrix="scores"][data-head="1"]'), NOTE_SCORES);
  assert.deepEqual(await readMatrix(page, '[data-matrix="v"][data-head="1"]'), NOTE_VALUES);
  const out = await readMatrix(page, '[data-matrix="output"]');
  assertClose(assert, out, noteOutputs(), 1e-12, 'output');
  // Not the note's rounded [2, 7, 1.5]: the exact first output row.
  assert.equal(await page.textContent('[data-matrix="output"] [data-row="0"][data-col="0"]'), '1.9366');
  assert.equal(await page.textContent('[data-matrix="output"] [data-row="0"][data-col="1"]'), '6.6831');
  assert.equal(await page.textContent('[data-matrix="output"] [data-row="0"][data-col="2"]'), '1.5951');
  assert.equal(await page.$('[role="alert"]'), null, 'no alert on the default page');
  await shot(page, 'default-en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a #s= link opens the scenario it carries', async () => {
  const scenario = {
    format: 'attention-lab/1',
    tokens: ['我', '喜欢', '你'],
    x: [[1, 0.5, -1], [0, 2, 1], [0.25, -0.5, 3]],
    heads: [
      { w_q: [[1, 0], [0, 1], [1, 1]], w_k: [[0.5, 1], [1, 0], [0, -1]], w_v: [[1, 2], [0, 1], [3, 0]] },
      { w_q: [[0, 1], [1, 0], [-1, 1]], w_k: [[1, 1], [0, 2], [1, 0]], w_v: [[0, 1], [1, 1], [2, -1]] },
    ],
    w_o: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]],
    scale: true,
    mask: 'causal',
    positional: 'sinusoidal',
  };
  const expected = reference(scenario);
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en' + shareFragment(scenario));
  await ready(page);
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), expected.output, 1e-12, 'output');
  assertClose(assert, await readMatrix(page, '[data-matrix="weights"][data-head="2"]'), expected.heads[1].weights, 1e-12, 'head 2 weights');
  assertClose(assert, await readMatrix(page, '[data-matrix="concat"]'), expected.concat, 1e-12, 'concat');
  // Causal: query 1 may not see keys 2 and 3, so their weights are exactly 0.
  assert.equal(await page.getAttribute('[data-matrix="weights"][data-head="1"] [data-row="0"][data-col="2"]', 'data-value'), '0');
  assert.ok(await page.$('[data-matrix="pe"]'), 'the positional encoding is shown');
  assert.equal(await page.$$eval('[data-matrix="output"] tbody th', (ths) => ths.map((t) => t.textContent).join('|')), '我|喜欢|你');
  await shot(page, 'shared-link-en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a broken #s= link shows an alert and the default scenario', async () => {
  const { context, page, problems } = await openPage(browser);
  for (const [hash, needle] of [
    ['#s=%%%not-base64', 'base64url'],
    [shareFragment({ format: 'attention-lab/1', x: [[1, 2]], heads: [{ w_q: [[1], [2]], w_k: [[1, 2], [3, 4], [5, 6]], w_v: [[1], [1]] }] }), 'heads[0].w_k: expected 2×1, got 3×2'],
  ]) {
    // A fresh load (a new tab), and the same link pasted into an open page
    // (hashchange).
    const tab = await context.newPage();
    tab.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
    await tab.goto(BASE_URL + '?lang=en' + hash);
    await ready(tab);
    let alert = await tab.textContent('[role="alert"]');
    assert.ok(alert.includes(needle), `alert on load says why: ${alert}`);
    await tab.close();
    await page.goto(BASE_URL + '?lang=en');
    await page.reload();
    await ready(page);
    assert.equal(await page.$('[role="alert"]'), null);
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForSelector('[role="alert"]');
    alert = await page.textContent('[role="alert"]');
    assert.ok(alert.includes(needle), `alert after hashchange says why: ${alert}`);
    assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), noteOutputs(), 1e-12, 'default output');
  }
  await shot(page, 'broken-link-en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a query row with every key masked says so instead of showing NaN', async () => {
  const scenario = {
    format: 'attention-lab/1',
    x: [[1, 0], [0, 1]],
    heads: [{ w_q: [[1, 0], [0, 1]], w_k: [[1, 0], [0, 1]], w_v: [[1, 0], [0, 1]] }],
    mask: { custom: [[true, false], [false, false]] },
  };
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en' + shareFragment(scenario));
  await ready(page);
  const alert = await page.textContent('[role="alert"]');
  assert.match(alert, /undefined/);
  const text = await page.textContent('[data-matrix="output"]');
  assert.ok(!text.includes('NaN'), 'no NaN on screen');
  assert.equal(await page.textContent('[data-matrix="output"] [data-row="1"][data-col="0"]'), '—');
  assert.equal(await page.getAttribute('[data-matrix="output"] [data-row="0"][data-col="0"]', 'data-value'), '1');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the language follows ?lang=, is remembered, and defaults to the browser', async () => {
  const zhBrowser = await openPage(browser, { locale: 'zh-CN' });
  await zhBrowser.page.goto(BASE_URL);
  await ready(zhBrowser.page);
  assert.equal(await zhBrowser.page.textContent('h1'), '注意力实验室');
  assert.equal(await zhBrowser.page.getAttribute('html', 'lang'), 'zh-CN');
  await shot(zhBrowser.page, 'default-zh');
  // ?lang=en wins over the browser and is remembered for the next visit.
  await zhBrowser.page.goto(BASE_URL + '?lang=en');
  await ready(zhBrowser.page);
  assert.equal(await zhBrowser.page.textContent('h1'), 'Attention Lab');
  await zhBrowser.page.goto(BASE_URL);
  await ready(zhBrowser.page);
  assert.equal(await zhBrowser.page.textContent('h1'), 'Attention Lab');
  // The switch button changes the language in place.
  await switchLanguage(zhBrowser.page, 'zh-CN');
  assert.equal(await zhBrowser.page.textContent('h1'), '注意力实验室');
  assert.deepEqual(zhBrowser.problems, []);
  await zhBrowser.context.close();

  const enBrowser = await openPage(browser, { locale: 'en-GB' });
  await enBrowser.page.goto(BASE_URL);
  await ready(enBrowser.page);
  assert.equal(await enBrowser.page.textContent('h1'), 'Attention Lab');
  assert.equal(await enBrowser.page.getAttribute('html', 'lang'), 'en');
  await enBrowser.context.close();
});

test('a narrow window (375 px) does not overflow the page, in either language', async () => {
  for (const lang of ['zh', 'en']) {
    const { context, page, problems } = await openPage(browser, { locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: { width: 375, height: 800 } });
    await page.goto(`${BASE_URL}?lang=${lang}`);
    await ready(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${lang}: page scrolls sideways by ${overflow}px`);
    await shot(page, `narrow-${lang}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
