// The training lab (docs/format.md §3, "The training lab"; docs/training.md):
// its own chunk of the page's module, loaded only when opened; it trains from the UI without
// freezing the page; its heatmaps show what the heads learn; "Open in the
// workbench" gives the workbench the same weights; a model file round-trips.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, ready, readMatrix, withEditToUndo, BASE_URL } from './helpers.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const LAB = '[data-lab="train"]';
const isTrain = (url) => /\/train-[0-9a-f]{16}\.wasm$/.test(new URL(url).pathname);

/** Opens the lab at once (`view=train`) and waits for it. */
async function openLab(page, lang, extra = '') {
  await page.goto(`${BASE_URL}?lang=${lang}&view=train${extra}`);
  await page.waitForSelector(`${LAB}[data-state] [data-control="train"]`, { timeout: 20000 });
}

const attr = (page, name) => page.getAttribute(LAB, name);

/** Waits until attribute `name` of the lab satisfies `test`: `['is', a, b, …]`
 * (one of these strings), `['atLeast', x]` (a number ≥ x), `['set']` (not
 * empty) or `['words', k]` (k words). The page's CSP allows no eval, so the
 * test is data, not code. */
async function waitAttr(page, name, test, timeout = 60000) {
  await page.waitForFunction(([sel, name, [kind, ...args]]) => {
    const v = document.querySelector(sel)?.getAttribute(name);
    if (v == null) return false;
    if (kind === 'is') return args.includes(v);
    if (kind === 'atLeast') return Number(v) >= args[0];
    if (kind === 'set') return v !== '';
    if (kind === 'words') return v.split(' ').length === args[0];
    throw new Error(kind);
  }, [LAB, name, test], { timeout, polling: 'raf' });
}

/** The weights of a head as the lab's figure exposes them, n × n strings. */
async function labWeights(page, layer, head) {
  const text = await page.getAttribute(`${LAB} .train-head[data-layer="${layer}"][data-head="${head}"]`, 'data-weights');
  const flat = text.split(' ');
  const n = Math.round(Math.sqrt(flat.length));
  return Array.from({ length: n }, (_, r) => flat.slice(r * n, r * n + n));
}

/** Hovers heatmap cell (query q, key k) and returns the tooltip's value. */
async function tooltipValue(page, layer, head, q, k) {
  const canvas = `${LAB} canvas[data-heatmap="${head}"][data-layer="${layer}"]`;
  const [left, top, cell] = await page.$eval(canvas, (c) => [c.dataset.left, c.dataset.top, c.dataset.cell].map(Number));
  await page.hover(canvas, { position: { x: left + (k + 0.5) * cell, y: top + (q + 0.5) * cell } });
  const tip = `${LAB} .heat-tip[data-query="${q}"][data-key="${k}"]`;
  await page.waitForSelector(tip);
  return page.getAttribute(tip, 'data-value');
}

/** Clicks Pause if still training; waits for a stopped state. */
async function stop(page) {
  if ((await attr(page, 'data-state')) === 'training') await page.click(`${LAB} [data-control="train"]`);
  await waitAttr(page, 'data-state', ['is', 'paused', 'done'], 5000);
}

for (const lang of ['zh', 'en']) {
  test(`${lang}: previous trains from the UI to 0.95, and its head is a previous-token head`, async () => {
    const { context, page, problems } = await openPage(browser);
    await openLab(page, lang);
    assert.equal(await attr(page, 'data-state'), 'idle');
    assert.equal(await attr(page, 'data-train-step'), '0');
    const sample = (await attr(page, 'data-sample')).split(' ');
    assert.equal(sample.length, 8);
    assert.ok(sample.every((t) => /^[A-H]$/.test(t)), sample.join(' '));
    assert.equal(await page.$eval(`${LAB} [data-control="task"]`, (s) => s.value), 'previous');
    for (const task of ['previous', 'reverse', 'induction', 'majority', 'seq2seq', 'multilabel']) {
      assert.ok(await page.$(`${LAB} [data-control="task"] option[value="${task}"]`), task);
    }
    for (const c of ['layers', 'heads', 'positional', 'seed', 'step', 'reset', 'open', 'export', 'import']) {
      assert.ok(await page.$(`${LAB} [data-control="${c}"]`), c);
    }
    // Predict, then reveal.
    await page.click(`${LAB} .predict [data-answer="0"]`);
    await page.waitForSelector(`${LAB} .predict .verdict`);

    await page.click(`${LAB} [data-control="train"]`);
    await waitAttr(page, 'data-state', ['is', 'training', 'done'], 5000);
    await waitAttr(page, 'data-accuracy', ['atLeast', 0.95]);
    await stop(page);
    const steps = Number(await attr(page, 'data-train-step'));
    assert.ok(steps > 0);
    // Stopped means stopped: a few frames later, the same step.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100)))));
    assert.equal(Number(await attr(page, 'data-train-step')), steps);
    const loss = Number(await attr(page, 'data-loss'));
    assert.ok(loss > 0 && loss < 1, `loss ${loss}`);

    // The previous-token pattern: each query i ≥ 1 weighs key i − 1 most.
    const w = await labWeights(page, 1, 1);
    let sum = 0;
    for (let i = 1; i < w.length; i++) {
      sum += Number(w[i][i - 1]);
      const row = w[i].map(Number);
      assert.equal(row.indexOf(Math.max(...row)), i - 1, `query ${i} looks at ${row.indexOf(Math.max(...row))}`);
    }
    assert.ok(sum / (w.length - 1) > 0.5, `mean weight on the previous key ${sum / (w.length - 1)}`);
    // The heatmap's tooltip shows the same numbers.
    for (const i of [1, 4, 7]) {
      assert.equal(await tooltipValue(page, 1, 1, i, i - 1), w[i][i - 1]);
    }
    const head = `${LAB} .train-head[data-layer="1"][data-head="1"]`;
    assert.equal(await page.getAttribute(head, 'data-head-kind'), 'previous-token head');
    const caption = await page.textContent(`${head} figcaption`);
    assert.ok(caption.includes(lang === 'zh' ? '前一词元头' : 'previous-token head'), caption);
    // The decoding readout: one pass against one step per position, and
    // the same predictions wherever the inputs so far are the same.
    const dec = `${LAB} [data-decode-steps]`;
    assert.equal(await page.getAttribute(dec, 'data-parallel-passes'), '1');
    assert.equal(await page.getAttribute(dec, 'data-decode-steps'), '7');
    const cells = await page.$$eval(`${LAB} [data-decode] td[data-decoded]`, (tds) => tds.map((t) => [t.dataset.sameInput, t.dataset.agree]));
    assert.equal(cells.length, 7);
    assert.ok(cells.filter(([same]) => same === 'true').length >= 4);
    for (const [same, agree] of cells) if (same === 'true') assert.equal(agree, 'true');
    // axe-core: no serious or critical violation in the trained lab.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async (sel) => (await window.axe.run(document.querySelector(sel))).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), LAB);
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

for (const lang of ['zh', 'en']) {
  test(`${lang}: seq2seq names its kind of output, trains at 1.5× to whole answers, and its answers stop at <EOS>`, async () => {
    const { context, page, problems } = await openPage(browser);
    await openLab(page, lang);
    // Each task names its kind of output with its § of note 000.
    for (const [task, kind, section] of [['previous', 'labeling', '2.1'], ['majority', 'classification', '2.1'], ['seq2seq', 'seq2seq', '2.2']]) {
      await page.selectOption(`${LAB} [data-control="task"]`, task);
      await page.waitForSelector(`${LAB} [data-output="${kind}"]`);
      const words = await page.textContent(`${LAB} [data-output]`);
      assert.ok(words.includes(section), `${task}: ${words}`);
    }
    await waitAttr(page, 'data-state', ['is', 'idle']);
    const sample = (await attr(page, 'data-sample')).split(' ');
    assert.equal(sample.length, 12);
    assert.ok(sample.includes('<SEP>') && sample.includes('<EOS>'), sample.join(' '));
    await page.click(`${LAB} .predict [data-answer="0"]`);
    await page.waitForSelector(`${LAB} .predict .verdict`);
    await page.click(`${LAB} [data-speed-button="1.5"]`);
    await waitAttr(page, 'data-speed', ['is', '1.5'], 5000);
    await page.click(`${LAB} [data-control="train"]`);
    await waitAttr(page, 'data-state', ['is', 'training', 'done'], 5000);
    // Within 120 s of training at 1.5×.
    await waitAttr(page, 'data-whole-accuracy', ['atLeast', 0.9], 120000);
    await stop(page);
    const whole = Number(await attr(page, 'data-whole-accuracy'));
    assert.equal(await page.textContent(`${LAB} [data-readout="whole"]`), String(Math.round(whole * 1000) / 1000));
    // Generated answers: one row per input length, each stopped by <EOS>
    // where it is right, for at least three lengths.
    await page.waitForSelector(`${LAB} [data-generate] [data-input-length]`);
    const rows = await page.$$eval(`${LAB} [data-generate] [data-input-length]`, (lis) => lis.map((li) => ({ ...li.dataset, text: li.textContent })));
    const stopped = rows.filter((r) => r.right === 'true' && r.stopped === 'eos');
    assert.ok(new Set(stopped.map((r) => r.inputLength)).size >= 3, JSON.stringify(rows));
    for (const r of rows) {
      const answer = r.answer.split(' ');
      assert.equal(r.stopped === 'eos', answer[answer.length - 1] === '<EOS>', JSON.stringify(r));
      assert.equal(r.right === 'true', r.answer === r.expected, JSON.stringify(r));
      // The right answer: the input's letters sorted, then <EOS>; the line
      // says the input, the answer and where it stopped in words.
      const input = r.input.split(' ');
      assert.equal(input.length, Number(r.inputLength));
      assert.equal(r.expected, [...[...input].sort(), '<EOS>'].join(' '));
      assert.ok(r.text.startsWith(`${r.input} → ${r.answer}`), r.text);
      if (r.stopped === 'eos') assert.ok(r.text.includes(String(answer.length)), r.text);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

for (const lang of ['zh', 'en']) {
  test(`${lang}: multilabel learns with a sigmoid per label, and written as a sequence it ends in <EOS>; both read-outs side by side`, async () => {
    const { context, page, problems } = await openPage(browser);
    await openLab(page, lang);
    await page.selectOption(`${LAB} [data-control="task"]`, 'multilabel');
    await page.waitForSelector(`${LAB} [data-output="multilabel"]`);
    const words = await page.textContent(`${LAB} [data-output]`);
    assert.ok(words.includes('§2') || words.includes('第 2 节'), words);
    assert.equal(await page.$eval(`${LAB} [data-control="readout"]`, (s) => s.value), 'sigmoid');
    // The sequence read-out says its order convention.
    const order = await page.textContent(`${LAB} [data-control="readout"] option[value="sequence"]`);
    assert.ok(order.includes(lang === 'zh' ? '字母顺序' : 'alphabetical') && order.includes('<EOS>'), order);
    await waitAttr(page, 'data-state', ['is', 'idle']);
    await page.click(`${LAB} [data-speed-button="1.5"]`);
    await waitAttr(page, 'data-speed', ['is', '1.5'], 5000);
    // The sigmoid read-out: per-label accuracy (data-accuracy) of 0.9.
    await page.click(`${LAB} [data-control="train"]`);
    await waitAttr(page, 'data-accuracy', ['atLeast', 0.9], 120000);
    await stop(page);
    const both = `${LAB} [data-figure="multilabel"]`;
    await page.waitForSelector(`${both} [data-readout-figure="sigmoid"]`);
    assert.equal(await page.getAttribute(both, 'data-trained'), 'sigmoid');
    // Both read-outs of the evaluation sample, side by side: the sigmoid's
    // letters are those whose probability is above 1/2.
    const letters = await page.$$eval(`${both} [data-letter]`, (els) => els.map((e) => [e.dataset.letter, Number(e.dataset.probability), e.dataset.yes === 'true' && !!e.querySelector('b')]));
    assert.equal(letters.length, 6);
    for (const [, p, yes] of letters) assert.equal(yes, p > 0.5);
    const said = letters.filter(([, p]) => p > 0.5).map(([l]) => l).join(' ');
    assert.equal(await page.getAttribute(`${both} [data-readout-figure="sigmoid"]`, 'data-sigmoid'), said);
    assert.ok(await page.$(`${both} [data-readout-figure="sequence"]`));
    // The sequence read-out: its own model, trained until its answers are
    // whole; the evaluation sample's answer is the letters and <EOS>.
    await page.selectOption(`${LAB} [data-control="readout"]`, 'sequence');
    await waitAttr(page, 'data-train-step', ['is', '0'], 5000);
    await page.click(`${LAB} [data-control="train"]`);
    await waitAttr(page, 'data-whole-accuracy', ['atLeast', 0.9], 120000);
    await stop(page);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.trained === 'sequence', both);
    const seq = `${both} [data-readout-figure="sequence"]`;
    const answer = (await page.getAttribute(seq, 'data-sequence')).split(' ');
    assert.equal(answer[answer.length - 1], '<EOS>', answer.join(' '));
    assert.equal(await page.getAttribute(seq, 'data-stopped'), 'eos');
    const truth = await page.getAttribute(both, 'data-truth');
    if (answer.slice(0, -1).join(' ') !== truth) {
      // Not every sample is right at 0.9; then the one shown is among the wrong.
      assert.ok(Number(await attr(page, 'data-whole-accuracy')) < 1);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('the speed buttons change the steps per second', async () => {
  const { context, page, problems } = await openPage(browser);
  await openLab(page, 'en');
  // Reverse without positions never gets everything right: it keeps training.
  await page.selectOption(`${LAB} [data-control="task"]`, 'reverse');
  await page.selectOption(`${LAB} [data-control="positional"]`, 'none');
  await waitAttr(page, 'data-state', ['is', 'idle']);
  const rates = {};
  await page.click(`${LAB} [data-control="train"]`);
  for (const speed of ['0.5', '1.5']) {
    await page.click(`${LAB} [data-speed-button="${speed}"]`);
    await waitAttr(page, 'data-speed', ['is', speed], 5000);
    await waitAttr(page, 'data-steps-per-second', ['set'], 10000);
    // Half a second more for the measure to settle.
    const step0 = Number(await attr(page, 'data-train-step'));
    await waitAttr(page, 'data-train-step', ['atLeast', step0 + Number(speed) * 10], 10000);
    rates[speed] = Number(await attr(page, 'data-steps-per-second'));
  }
  await stop(page);
  assert.ok(rates['0.5'] > 5 && rates['0.5'] < 15, `0.5×: ${rates['0.5']} steps/s`);
  assert.ok(rates['1.5'] > 2 * rates['0.5'], `1.5×: ${rates['1.5']} against ${rates['0.5']}`);
  const shown = await page.textContent(`${LAB} [data-measured]`);
  assert.match(shown, /steps\/s/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Open in the workbench shows the model as a stacked scenario with the lab\'s weights, one Undo away', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  const before = await readMatrix(page, '[data-matrix="output"]');
  // The module is not downloaded until the reader opens the lab.
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.waitForLoadState('networkidle');
  assert.deepEqual(requests.filter(isTrain), []);
  await page.click(`${LAB} [data-control="open-lab"]`);
  await page.waitForSelector(`${LAB}[data-state] [data-control="train"]`);
  assert.equal(requests.filter(isTrain).length, 1);
  assert.equal(await page.getAttribute(LAB, 'data-labs'), null);

  await page.selectOption(`${LAB} [data-control="task"]`, 'induction');
  await waitAttr(page, 'data-sample', ['words', 14], 5000);
  for (let k = 0; k < 3; k++) await page.click(`${LAB} [data-control="step"]`);
  await waitAttr(page, 'data-train-step', ['is', '3'], 5000);
  const sample = (await attr(page, 'data-sample')).split(' ');
  await page.click(`${LAB} [data-control="open"]`);
  await page.waitForSelector('[data-matrix="weights"][data-layer="2"][data-head="2"] [data-value]');
  for (const layer of [1, 2]) {
    for (const head of [1, 2]) {
      const lab = await labWeights(page, layer, head);
      const bench = await page.$eval(`[data-matrix="weights"][data-layer="${layer}"][data-head="${head}"]`, (fig) => {
        const rows = [];
        for (const cell of fig.querySelectorAll('[data-row][data-col]')) (rows[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = cell.dataset.value;
        return rows;
      });
      assert.deepEqual(bench, lab, `layer ${layer}, head ${head}`);
    }
  }
  // The tokens are the sample's; the positions are in x already.
  const tokens = await page.$$eval('[data-matrix="x"]:not([data-layer]) [data-col="0"]', (cells) => cells.length);
  assert.equal(tokens, sample.length);
  assert.equal(await page.$eval('#opt-positional, [data-control="positional"]', (s) => s.value).catch(() => 'none'), 'none');
  // Undo brings the reader's work back.
  await page.click('#undo');
  await page.waitForFunction((n) => document.querySelectorAll('[data-matrix="output"] [data-col="0"]').length === n, before.length);
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('export then import restores the same loss', async () => {
  const { context, page, problems } = await openPage(browser, { acceptDownloads: true });
  await openLab(page, 'en');
  await page.click(`${LAB} [data-control="train"]`);
  await waitAttr(page, 'data-train-step', ['atLeast', 10]);
  await stop(page);
  const [step, loss, accuracy] = [await attr(page, 'data-train-step'), await attr(page, 'data-loss'), await attr(page, 'data-accuracy')];
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${LAB} [data-control="export"]`)]);
  const path = join(mkdtempSync(join(tmpdir(), 'trainlab-')), 'model.json');
  await download.saveAs(path);
  await page.click(`${LAB} [data-control="reset"]`);
  await waitAttr(page, 'data-train-step', ['is', '0'], 5000);
  assert.notEqual(await attr(page, 'data-loss'), loss);
  await page.setInputFiles(`${LAB} [data-control="import"]`, path);
  await waitAttr(page, 'data-train-step', ['is', step], 5000);
  assert.equal(await attr(page, 'data-loss'), loss);
  assert.equal(await attr(page, 'data-accuracy'), accuracy);
  assert.equal(await attr(page, 'data-state'), 'paused');
  // A file that is not a model is refused, the model kept.
  await page.setInputFiles(`${LAB} [data-control="import"]`, { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"attention-lab-model/1"}') });
  await page.waitForSelector(`${LAB} [role="alert"]`);
  assert.equal(await attr(page, 'data-loss'), loss);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [lang, words] of [
  ['zh', ['模型文件没有导入', 'config.heads：应在 1 … 4 之间，实际是 9', 'weights.embedding：应为', '不是 JSON：第 2 行']],
  ['en', ['The model file was not imported', 'config.heads: expected 1 … 4, got 9', 'weights.embedding: expected', 'not JSON: line 2']],
]) {
  test(`${lang}: a broken model file is refused in the page's language, naming its field, the model kept`, async () => {
    const { context, page, problems } = await openPage(browser, { acceptDownloads: true });
    await openLab(page, lang);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${LAB} [data-control="export"]`)]);
    const good = readFileSync(await download.path(), 'utf8');
    const doc = JSON.parse(good);
    const loss = await attr(page, 'data-loss');
    // Each file's refusal differs from the one before, so waiting for a
    // new text waits for this file's.
    let shown = '';
    const importText = async (name, text) => {
      await page.setInputFiles(`${LAB} [data-control="import"]`, { name, mimeType: 'application/json', buffer: Buffer.from(text) });
      await page.waitForFunction(([sel, before]) => {
        const alert = document.querySelector(`${sel} [role="alert"]`);
        return alert && alert.textContent.length > 0 && alert.textContent !== before;
      }, [LAB, shown]);
      shown = await page.textContent(`${LAB} [role="alert"]`);
      return shown;
    };
    const texts = [];
    texts.push(await importText('heads.json', JSON.stringify({ ...doc, config: { ...doc.config, heads: 9 } })));
    const rows = doc.weights.embedding;
    texts.push(await importText('rows.json', JSON.stringify({ ...doc, weights: { ...doc.weights, embedding: rows.slice(1) } })));
    texts.push(await importText('cut.json', '{\n  "format": '));
    assert.ok(texts[0].startsWith(words[0]), texts[0]);
    assert.ok(texts[0].includes(words[1]), texts[0]);
    assert.ok(texts[1].includes(words[2]), texts[1]);
    assert.ok(texts[2].includes(words[3]), texts[2]);
    if (lang === 'zh') {
      // No English word reaches the Chinese page: what is left once the
      // fields the file names (config.heads, weights.embedding) and JSON
      // are taken out has no Latin letter.
      for (const t of texts) {
        const rest = t.replace(/config\.heads|weights\.embedding|JSON/g, '');
        assert.doesNotMatch(rest, /[A-Za-z]/, t);
      }
    }
    // The model is kept.
    assert.equal(await attr(page, 'data-loss'), loss);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('an embedded training lab loads at once, without the labs\' chunk', async () => {
  const { context, page, problems } = await openPage(browser);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${BASE_URL}?lang=zh&embed=1&view=train`);
  await page.waitForSelector(`${LAB}[data-state="idle"] [data-control="train"]`, { timeout: 20000 });
  await page.waitForLoadState('networkidle');
  assert.equal(requests.filter(isTrain).length, 1);
  assert.deepEqual(requests.filter((u) => /\/labs-[0-9a-f]{16}/.test(u)), []);
  assert.equal(await page.$('[data-matrix="output"]'), null);
  // No workbench to open in.
  assert.equal(await page.$(`${LAB} [data-control="open"]`), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('clicks in the training lab never run the page\'s listeners, and Pause stops within a frame', async () => {
  const { context, page, problems } = await openPage(browser);
  const cell = await withEditToUndo(page);
  await page.waitForSelector('section.labs [data-lab="cost"]');
  await page.click(`${LAB} [data-control="open-lab"]`);
  await page.waitForSelector(`${LAB}[data-state] [data-control="train"]`);
  await page.selectOption(`${LAB} [data-control="task"]`, 'induction');
  await page.click(`${LAB} .predict .skip`);
  await page.click(`${LAB} [data-speed-button="1.5"]`);
  await page.click(`${LAB} [data-control="train"]`);
  await waitAttr(page, 'data-train-step', ['atLeast', 5], 20000);
  // Pause stops training in its click (the loop sees it before the next
  // frame) and says so at once; no step over the next frames.
  const after = await page.evaluate(async (sel) => {
    const lab = document.querySelector(sel);
    lab.querySelector('[data-control="train"]').click();
    const state = lab.dataset.state;
    const step = lab.dataset.trainStep;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    for (let k = 0; k < 5; k++) await frame();
    return { state, step, later: lab.dataset.trainStep };
  }, LAB);
  assert.equal(after.state, 'paused', JSON.stringify(after));
  assert.equal(after.later, after.step, JSON.stringify(after));
  for (const b of ['[data-control="step"]', '[data-speed-button="0.5"]', '[data-control="reset"]']) await page.click(`${LAB} ${b}`);
  // The lab follows the page's language.
  assert.equal(await page.textContent(`${LAB} [data-control="reset"]`), 'Reset', 'the lab in English');
  await page.click('.lang-switch');
  await page.waitForFunction((sel) => document.querySelector(`${sel} [data-control="reset"]`).textContent === '重置', LAB);
  assert.equal(await page.textContent(`${LAB} h2`), '训练实验：看注意力头学会看哪里', 'the section\'s title in Chinese');
  assert.equal(await page.getAttribute(cell, 'data-value'), '7', 'the edit stays');
  assert.equal(await page.$eval('#redo', (b) => b.disabled), true, 'nothing was undone');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the section says loading while the chunk loads, and failed if it cannot', async () => {
  const { context, page } = await openPage(browser);
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/\/train-[0-9a-f]{16}\.wasm$/, async (route) => { await held; await route.abort(); });
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  assert.equal(await page.getAttribute(LAB, 'data-labs'), null);
  await page.click(`${LAB} [data-control="open-lab"]`);
  await page.waitForSelector(`${LAB}[data-labs="loading"]`);
  release();
  await page.waitForSelector(`${LAB}[data-labs="failed"] [role="alert"]`);
  // The rest of the page goes on working.
  assert.ok(await page.$('[data-matrix="output"] [data-value]'));
  await context.close();
});

test('after a failed load, "Try again" loads the training lab', async () => {
  const { context, page } = await openPage(browser);
  let tries = 0;
  await page.route(/\/train-[0-9a-f]{16}\.wasm$/, async (route) => {
    tries += 1;
    await (tries === 1 ? route.abort() : route.continue());
  });
  await page.goto(`${BASE_URL}?lang=zh`);
  await ready(page);
  await page.click(`${LAB} [data-control="open-lab"]`);
  await page.waitForSelector(`${LAB}[data-labs="failed"] [role="alert"] [data-control="retry-lab"]`);
  assert.equal(await page.textContent(`${LAB} [data-control="retry-lab"]`), '重新加载');
  await page.click(`${LAB} [data-control="retry-lab"]`);
  await page.waitForSelector(`${LAB}[data-state="idle"] [data-control="train"]`);
  assert.equal(tries, 2);
  assert.equal(await page.getAttribute(LAB, 'data-labs'), null);
  assert.equal(await page.$(`${LAB} [role="alert"]`), null);
  await context.close();
});

test('a seed being typed while the lab trains stays in its field until it is committed', async () => {
  const { context, page, problems } = await openPage(browser);
  await openLab(page, 'en');
  const seed = `${LAB} [data-control="seed"]`;
  const first = await page.inputValue(seed);
  await page.click(`${LAB} [data-control="train"]`);
  await waitAttr(page, 'data-state', ['is', 'training'], 5000);
  // fill types without leaving the field, so nothing is committed yet.
  await page.fill(seed, '4242');
  // The lab's attributes are written after each of its renders: two new
  // steps on them are two renders since the text was typed.
  for (let k = 0; k < 2; k++) {
    const step = Number(await attr(page, 'data-train-step'));
    await waitAttr(page, 'data-train-step', ['atLeast', step + 1], 20000);
  }
  assert.equal(await page.inputValue(seed), '4242', 'a training step wiped the typed seed');
  // Committed, it becomes the model's seed: a fresh model, training stopped.
  await page.press(seed, 'Enter');
  await waitAttr(page, 'data-state', ['is', 'idle'], 5000);
  assert.equal(await page.inputValue(seed), '4242');
  assert.notEqual(first, '4242');
  assert.deepEqual(problems, []);
  await context.close();
});
