// Issue 9/11 (Labs II): d_model up to 512 through windowed matrices, and
// multi-head attention in the notes' form (a shared projection, then a
// matrix per head) beside the library's blocks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, readMatrix, shot, assertClose, shareFragment, TWO_HEADS, BASE_URL } from './helpers.mjs';
import { reference } from './reference.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const X = '[data-matrix="x"]';
const colNav = (m) => `${m} .window-nav[data-axis="col"]`;

/** The scenario the page saved (small enough for localStorage here). */
const saved = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('attention-lab.scenario')));

/** Moves a matrix's column window with its slider (a range input). */
async function slide(page, matrix, start) {
  await page.$eval(`${colNav(matrix)} input`, (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, start);
}

/** The data-col of every cell of the first row shown in `matrix`. */
const shownCols = (page, matrix) => page.$$eval(`${matrix} tbody tr:first-child [data-col]`, (cs) => cs.map((c) => Number(c.dataset.col)));

/** Resolves after two animation frames: the page is not frozen. */
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));

test('d_model 512 from the controls: X shows a window of its columns with the full matrix\'s positions and values, and edits far right reach Q', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  await page.fill('#dim-d-model', '512');
  await page.press('#dim-d-model', 'Enter');
  await page.waitForSelector(colNav(X));
  assert.ok(await frames(page), 'responsive after the resize');
  assert.equal(await page.textContent(`${colNav(X)} span`), 'columns 1–16 of 512');
  // A window, not 1,536 inputs: 3 rows × 16 columns; the page stays light.
  assert.equal(await page.$$eval(`${X} td input`, (xs) => xs.length), 3 * 16);
  const inputs = await page.$$eval('input', (xs) => xs.length);
  assert.ok(inputs < 400, `${inputs} inputs on the page`);

  // The intermediates closed when the scenario grew wide; open head 1's Q.
  assert.equal(await page.$('[data-matrix="q"]'), null);
  await page.click('article.head[aria-label="Head 1"] section.step:has(h3:text("Queries, keys, values")) button.toggle');
  await page.waitForSelector('[data-matrix="q"][data-head="1"]');
  let s = await saved(page);
  assert.equal(s.x[0].length, 512);
  const x = await readMatrix(page, X);
  x.forEach((row) => assert.deepEqual(Object.keys(row).map(Number), [...Array(16).keys()], 'columns 0–15 shown'));
  x.forEach((row, r) => row.forEach((v, c) => assert.equal(v, s.x[r][c], `x[${r}][${c}]`)));
  assertClose(assert, await readMatrix(page, '[data-matrix="q"][data-head="1"]'), reference(s).heads[0].q, 1e-12, 'q');

  // The slider moves the window; the cells name their place in the full matrix.
  await slide(page, X, 400);
  await page.waitForSelector(`${X} [data-row="0"][data-col="400"] input`);
  assert.equal(await page.textContent(`${colNav(X)} span`), 'columns 401–416 of 512');
  assert.deepEqual(await shownCols(page, X), Array.from({ length: 16 }, (_, k) => 400 + k));
  const moved = await readMatrix(page, X); // columns 0–399 are holes (null)
  moved.forEach((row, r) => {
    assert.equal(row.length, 416);
    for (let c = 400; c < 416; c++) assert.equal(row[c], s.x[r][c], `x[${r}][${c}] after sliding`);
  });

  // An edit at column 405 changes Q as the reference says.
  const sel = `${X} [data-row="0"][data-col="405"] input`;
  const qBefore = await readMatrix(page, '[data-matrix="q"][data-head="1"]');
  await page.click(sel);
  await page.fill(sel, '7.5');
  await page.press(sel, 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-matrix="x"] [data-row="0"][data-col="405"]').dataset.value === '7.5');
  s.x[0][405] = 7.5;
  const q = await readMatrix(page, '[data-matrix="q"][data-head="1"]');
  assert.notDeepEqual(q, qBefore, 'Q changed');
  assertClose(assert, q, reference(s).heads[0].q, 1e-12, 'q after the edit');
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), reference(s).output, 1e-12, 'output after the edit');
  s = await saved(page);
  assert.equal(s.x[0][405], 7.5, 'saved');

  // The arrow keys carry the window along when the caret leaves it.
  const last = `${X} [data-row="1"][data-col="415"] input`;
  await page.focus(last);
  await page.$eval(last, (el) => el.select());
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.closest('td')?.dataset.col === '416');
  assert.equal(await page.textContent(`${colNav(X)} span`), 'columns 402–417 of 512');
  assert.equal(await page.evaluate(() => document.activeElement.closest('td').dataset.row), '1');
  await shot(page, 'wide-x-512');

  // The column layout shows X as 512 × 3: the window is on its rows, and the
  // cells keep the row-vector positions (data-col is X's column).
  await page.click('input[name="convention"][value="col"]');
  await page.waitForSelector(`${X} .window-nav[data-axis="row"]`);
  assert.equal(await page.$(colNav(X)), null);
  const cols = await page.$$eval(`${X} td[data-col]`, (cs) => [...new Set(cs.map((c) => Number(c.dataset.col)))]);
  assert.equal(cols.length, 16);
  assert.ok(cols.includes(416), 'the window still shows the caret\'s column');
  const t = await readMatrix(page, X);
  t.forEach((row, r) => cols.forEach((c) => assert.equal(row[c], s.x[r][c], `x[${r}][${c}] in the column layout`)));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the "8 heads × 64 = 512" preset at 64 tokens: the page answers, the heads\' matrices are windowed, and an edit goes through', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  await page.selectOption('#preset', 'wide-512');
  await page.waitForSelector('#seed');
  await page.waitForFunction(() => document.querySelector('.dims').textContent.includes('d_model = 512'));
  await page.fill('#dim-n', '64');
  await page.press('#dim-n', 'Enter');
  await page.waitForFunction(() => document.querySelector('.dims').textContent.startsWith('n = 64, d_model = 512, d_k = 64, d_v = 64, h = 8'));
  assert.ok(await frames(page));
  // Output 64 × 512 and X 64 × 512 each show 64 × 16 cells.
  for (const m of [X, '[data-matrix="output"]']) {
    assert.equal(await page.$$eval(`${m} td[data-col]`, (xs) => xs.length), 64 * 16, m);
  }
  const cells = await page.$$eval('[data-value]', (xs) => xs.length);
  assert.ok(cells < 6000, `${cells} cells on the page`);
  // An edit: time it (reported, not asserted) and see the output change.
  const out = '[data-matrix="output"] [data-row="3"][data-col="0"]';
  const before = await page.getAttribute(out, 'data-value');
  const ms = await page.evaluate(async () => {
    const input = document.querySelector('[data-matrix="x"] [data-row="3"][data-col="0"] input');
    const t0 = performance.now();
    input.value = '9';
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - t0;
  });
  console.log(`wide preset, n=64: edit to next frame ${ms.toFixed(0)} ms`);
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.value !== undefined, out);
  assert.notEqual(await page.getAttribute(out, 'data-value'), before);
  // Too large for a link (about 9 MB): the share button says so instead.
  await page.click('#share');
  await page.waitForSelector('.status p');
  assert.match(await page.textContent('.status p'), /too large for a link/);
  // The notes' form at this size: windowed, and still equal.
  assert.equal(await page.getAttribute('[data-figure="heads-notes"] [data-equal]', 'data-equal'), 'true');
  assert.equal(await page.textContent(`${colNav('[data-matrix="q_shared"]')} span`), 'columns 1–16 of 512');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the notes\' form panel: shared q^i, the 0/1 matrix W^{q,r}, their product equals the head\'s Q row', async () => {
  for (const lang of ['en', 'zh']) {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(BASE_URL + `?lang=${lang}` + shareFragment(TWO_HEADS));
    await ready(page);
    const panel = '[data-figure="heads-notes"]';
    await page.waitForSelector(panel);
    await page.selectOption(`${panel} select[data-pick="token"]`, '2');
    await page.selectOption(`${panel} select[data-pick="head"]`, '1');
    await page.waitForSelector(`${panel} [data-matrix="q_head_notes"][data-head="2"]`);
    const ref = reference(TWO_HEADS);
    const [d, dk] = [2, 2];
    // q^3 shared: row 3 of every head's Q side by side.
    assertClose(assert, await readMatrix(page, `${panel} [data-matrix="q_shared"]`), [ref.heads.flatMap((h) => h.q[2])], 1e-12, 'shared q');
    // W^{q,2}: d_k × h·d_k, an identity block at head 2's columns.
    const w = await readMatrix(page, `${panel} [data-matrix="w_q_head"]`);
    assert.deepEqual(w, Array.from({ length: dk }, (_, c) => Array.from({ length: d * dk }, (_, m) => (m === dk + c ? 1 : 0))));
    assertClose(assert, await readMatrix(page, `${panel} [data-matrix="q_head_notes"]`), [ref.heads[1].q[2]], 1e-12, 'q^{3,2}');
    assertClose(assert, await readMatrix(page, `${panel} [data-matrix="q_head_row"]`), [ref.heads[1].q[2]], 1e-12, 'head 2 Q row 3');
    assert.equal(await page.getAttribute(`${panel} [data-equal]`, 'data-equal'), 'true');
    const text = await page.textContent(panel);
    if (lang === 'en') {
      assert.match(text, /bit for bit: yes/);
      assert.match(text, /the library just stores the product/);
      assert.match(text, /set by hand/);
    } else {
      assert.match(text, /逐位相同：\s*是/);
      assert.match(text, /手工设定/);
      assert.doesNotMatch(text, /the library|learned/);
    }
    await page.$eval(panel, (el) => el.scrollIntoView());
    await page.screenshot({ path: `test-results/heads-notes-${lang}.png`, clip: await page.$eval(panel, (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y + window.scrollY, width: r.width, height: Math.min(r.height, 900) }; }), fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('at 390 px the wide X and the notes\' panel fit the page width', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 390, height: 844 } });
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  await page.selectOption('#preset', 'wide-512');
  await page.waitForSelector(colNav(X));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await shot(page, 'wide-390');
  assert.deepEqual(problems, []);
  await context.close();
});
