// Every number a lab's sentence states is one its figure shows: the
// question and the revealed explanation are read, their numbers are found
// in the lab's own figure (tables, bars, inputs), also after the reader has
// moved the lab's inputs. In both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The numbers of a sentence (a true minus read as −), without the
 * indices that name a query, key or node (1-based, as `shown` lists them). */
const numbers = (text) => (text.replace(/−/g, '-').match(/-?\d+(?:\.\d+)?/g) ?? []);

/** Asserts that each number of `sentence` not in `allowed` occurs in `figure`. */
function allFound(sentence, figure, allowed = []) {
  const fig = figure.replace(/−/g, '-');
  for (const n of numbers(sentence)) {
    if (allowed.includes(n)) continue;
    assert.ok(fig.includes(n), `${n} of «${sentence}» is not in the figure: «${fig.slice(0, 400)}»`);
  }
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent);

for (const lang of ['zh', 'en']) {
  test(`geometry lab (${lang}): the question and the answer cite the figure's numbers, before and after a drag`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=geometry`);
    await ready(page);
    const lab = '[data-lab="geometry"]';
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector(`${lab} .verdict`);
    const figure = () => text(page, `${lab} .readout`);
    const check = async () => {
      const q = await text(page, `${lab} .question`);
      const v = await text(page, `${lab} .verdict`);
      // k¹, k² and note 004 §8 are names, not measurements.
      allFound(q.replace(/004/g, ''), await figure());
      allFound(v, await figure());
      return v;
    };
    const first = await check();
    assert.match(first, lang === 'zh' ? /猜对了/ : /Right/, 'k² wins in the opening picture');
    // Drag k² down with the keyboard until it points away from q: the
    // sentence follows, and k¹ becomes the right answer.
    const score = () => page.getAttribute(`${lab} [data-score]`, 'data-score').then(Number);
    await page.focus(`${lab} [data-vec="k2"]`);
    for (let k = 0; k < 12; k++) {
      const before = await score();
      await page.keyboard.press('Shift+ArrowDown');
      await page.waitForFunction((s) => Number(document.querySelector('[data-score]').dataset.score) !== s, before);
    }
    const moved = await check();
    assert.notEqual(moved, first);
    const weights = await page.$$eval(`${lab} [data-weight]`, (rows) => rows.map((r) => Number(r.dataset.value)));
    assert.ok(weights[0] > weights[1], 'k¹ now wins');
    assert.ok(moved.includes('k¹'), moved);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`masks lab (${lang}): the question is about the mask on screen`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 900, height: 1200 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=masks`);
    await ready(page);
    const lab = '[data-lab="masks"]';
    await page.waitForSelector(`${lab} .question`);
    // Note 004 has no mask: the question asks the reader to hide a key, and
    // the answer cites the weight it has now, from the table below.
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector(`${lab} [data-mini="after"]`);
    const after = `${lab} [data-mini="after"]`;
    const before = await text(page, `${lab} .verdict`);
    const w12 = await page.$eval(`${after} td[data-row="0"][data-col="1"]`, (td) => td.textContent);
    assert.ok(before.includes(w12), `${w12} in «${before}»`);
    allFound(before, await text(page, after), ['0', '1', '2']);
    // Hide key 2 from query 1: now the question names that pair, and the
    // table shows it masked.
    await page.click(`${lab} .mask-grid button[data-row="0"][data-col="1"]`);
    await page.waitForSelector(`${after} td.off[data-row="0"][data-col="1"]`);
    const q = await text(page, `${lab} .question`);
    assert.ok(q.includes('1') && q.includes('2'), q);
    const v = await text(page, `${lab} .verdict`);
    assert.notEqual(v, before);
    assert.ok(v.includes('·'), v);
    // The graph on screen has no edge 1 → 2 either.
    assert.equal(await page.$eval(`${lab} .mask-grid button[data-row="0"][data-col="1"]`, (b) => b.dataset.value), 'false');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`cost lab (${lang}): one window W everywhere, whole path lengths`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 900, height: 1200 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=cost`);
    await ready(page);
    const lab = '[data-lab="cost"]';
    await page.click(`${lab} .predict .skip`);
    await page.waitForSelector(`${lab} [data-reach]`);
    const reach = async () => {
      const w = await page.$eval('#lab-cost-w', (i) => i.value);
      const line = await text(page, `${lab} [data-reach]`);
      assert.ok(line.includes(`W = ${w}`), `${line} should use W = ${w}`);
      const label = await text(page, `${lab} label[for="lab-cost-n"]`);
      assert.ok(label.includes(`W = ${w}`) && !/\br = /.test(label), label);
      const paths = await page.$$eval(`${lab} [data-path]`, (tds) => tds.map((t) => Number(t.dataset.path)));
      assert.ok(paths.length === 5 && paths.every((p) => Number.isInteger(p) && p >= 0), String(paths));
      return line;
    };
    const first = await reach();
    await page.fill('#lab-cost-w', '1');
    await page.press('#lab-cost-w', 'Enter');
    await page.waitForFunction((l) => document.querySelector('[data-reach]').textContent !== l, first);
    await reach();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`dropout lab (${lang}): the question's p is the lab's p`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 900, height: 1200 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=dropout`);
    await ready(page);
    const lab = '[data-lab="dropout"]';
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector('#lab-dropout-p');
    const p = () => page.$eval('#lab-dropout-p', (i) => i.value);
    assert.ok((await text(page, `${lab} .question`)).includes(`p = ${await p()}`));
    // Training mode unlocks p; 0.2 makes the factor 1/(1 − 0.2) = 1.25.
    await page.check(`${lab} input[type="radio"][value="training"]`);
    await page.waitForSelector('#lab-dropout-p:not([disabled])');
    await page.fill('#lab-dropout-p', '0.2');
    await page.press('#lab-dropout-p', 'Enter');
    await page.waitForFunction(() => document.querySelector('[data-lab="dropout"] .question').textContent.includes('0.2'));
    const v = await text(page, `${lab} .verdict`);
    assert.ok(v.includes('0.2') && v.includes('1.25'), v);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`every lab (${lang}): the numbers of a revealed answer are in the lab's figure`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 900, height: 1200 } });
    // Constants of the formulas the answers state (a softmax row sums to 1,
    // a masked weight is 0, doubling n quadruples n²), never a measurement.
    const constants = ['0', '1', '4', '2', '-1'];
    for (const name of ['scoring', 'geometry', 'scaling', 'positions', 'masks', 'dropout', 'cost']) {
      await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=${name}`);
      await ready(page);
      const lab = `[data-lab="${name}"]`;
      await page.waitForSelector(`${lab} [data-answer="0"]`);
      await page.click(`${lab} [data-answer="0"]`);
      await page.waitForSelector(`${lab} .verdict`);
      const verdict = await text(page, `${lab} .verdict`);
      const figure = await page.$eval(lab, (l) => {
        const c = l.cloneNode(true);
        c.querySelectorAll('.verdict, .question, .lead').forEach((e) => e.remove());
        const inputs = [...l.querySelectorAll('input')].map((i) => i.value).join(' ');
        return `${c.textContent} ${inputs}`;
      });
      allFound(verdict, figure, constants);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}
