// The matrix workbench: edit, refuse, undo/redo, persistence,
// share, import, paste, convention, exports, derivations, dimensions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openPage, ready, readMatrix, shot, assertClose, BASE_URL, NOTE_004, withX } from './helpers.mjs';
import { reference } from './reference.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// Note 004 as typed from the note (helpers.mjs).
const NOTE = NOTE_004;
const cellInput = (name, r, c, head) =>
  `[data-matrix="${name}"]${head ? `[data-head="${head}"]` : ''} [data-row="${r}"][data-col="${c}"] input`;

async function fresh(opts) {
  const o = await openPage(browser, opts);
  await o.page.goto(BASE_URL + '?lang=en');
  await ready(o.page);
  return o;
}

async function typeInto(page, selector, text, key = 'Enter') {
  await page.click(selector);
  await page.fill(selector, text);
  await page.press(selector, key);
}

test('typing into X recomputes every downstream matrix', async () => {
  const { context, page, problems } = await fresh();
  await typeInto(page, cellInput('x', 0, 1), '2');
  const expected = reference(withX(0, 1, 2));
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), expected.output, 1e-12, 'output');
  assertClose(assert, await readMatrix(page, '[data-matrix="q"][data-head="1"]'), expected.heads[0].q, 1e-12, 'q');
  assertClose(assert, await readMatrix(page, '[data-matrix="weights"][data-head="1"]'), expected.heads[0].weights, 1e-12, 'weights');
  // Enter moved the focus down one row.
  assert.equal(await page.evaluate(() => document.activeElement.closest('td').dataset.row), '1');
  // A weight matrix cell too, committed by Tab.
  await typeInto(page, cellInput('w_q', 0, 0, 1), '-1.5', 'Tab');
  const s2 = withX(0, 1, 2);
  s2.heads[0].w_q[0][0] = -1.5;
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), reference(s2).output, 1e-12, 'output after W_Q edit');
  assert.deepEqual(problems, []);
  await context.close();
});

test('text that is not a number is refused on that cell and nothing changes', async () => {
  const { context, page, problems } = await fresh();
  const before = await readMatrix(page, '[data-matrix="output"]');
  await typeInto(page, cellInput('x', 1, 1), 'abc');
  assert.equal(await page.getAttribute(cellInput('x', 1, 1), 'aria-invalid'), 'true');
  const msg = await page.textContent('[data-matrix="x"] [role="alert"]');
  assert.match(msg, /abc/);
  assert.match(msg, /not a number/);
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), before);
  assert.equal(await page.getAttribute('[data-matrix="x"] [data-row="1"][data-col="1"]', 'data-value'), '2');
  await shot(page, 'refused-cell-en');
  // Escape restores the good value and clears the message.
  await page.press(cellInput('x', 1, 1), 'Escape');
  assert.equal(await page.inputValue(cellInput('x', 1, 1)), '2');
  assert.equal(await page.$('[data-matrix="x"] [role="alert"]'), null);
  for (const bad of ['1e999', '', '1,5']) {
    await typeInto(page, cellInput('x', 0, 0), bad);
    assert.equal(await page.getAttribute(cellInput('x', 0, 0), 'aria-invalid'), 'true', `refuses «${bad}»`);
  }
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('undo and redo, by button and by keyboard, and the edit survives a reload', async () => {
  const { context, page, problems } = await fresh();
  const original = await readMatrix(page, '[data-matrix="output"]');
  await typeInto(page, cellInput('x', 0, 0), '3');
  const edited = reference(withX(0, 0, 3)).output;
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), edited, 1e-12, 'edited');
  await page.click('#undo');
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), original);
  await page.click('#redo');
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), edited, 1e-12, 'redone');
  await page.click('h1');
  await page.keyboard.press('Control+z');
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), original);
  await page.keyboard.press('Control+Shift+Z');
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), edited, 1e-12, 'redone by keyboard');
  // Resizing is undoable too.
  await page.fill('#dim-n', '5');
  await page.press('#dim-n', 'Enter');
  assert.equal((await readMatrix(page, '[data-matrix="x"]')).length, 5);
  await page.click('#undo');
  assert.equal((await readMatrix(page, '[data-matrix="x"]')).length, 3);
  // Reload: the edit is still there.
  await page.reload();
  await ready(page);
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), edited, 1e-12, 'after reload');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the share link opens the same scenario in a fresh page', async () => {
  const { context, page, problems } = await fresh();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  await typeInto(page, cellInput('x', 2, 3), '-0.25');
  await page.click('#share');
  await page.waitForSelector('.status p');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /#s=[A-Za-z0-9_-]+$/);
  const expected = await readMatrix(page, '[data-matrix="output"]');
  const other = await openPage(browser);
  await other.page.goto(link);
  await ready(other.page);
  assert.deepEqual(await readMatrix(other.page, '[data-matrix="output"]'), expected);
  assert.deepEqual([...problems, ...other.problems], []);
  await other.context.close();
  await context.close();
});

test('a broken import says what is wrong and changes nothing; a good one loads', async () => {
  const { context, page, problems } = await fresh();
  const before = await readMatrix(page, '[data-matrix="output"]');
  const bad = structuredClone(NOTE);
  bad.heads[0].w_k = [[1, 2], [3, 4], [5, 6], [7, 8]];
  await page.setInputFiles('#import-scenario', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await page.waitForSelector('.alert[role="alert"]');
  const alert = await page.textContent('.alert[role="alert"]');
  assert.match(alert, /heads\[0\]\.w_k: expected 4×3, got 4×2/);
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), before);
  await page.setInputFiles('#import-scenario', { name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "attention-lab/1", "x": [[1, 2], [3]]') });
  await page.waitForFunction(() => document.querySelector('.alert').textContent.includes('not valid JSON'));
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), before);
  const good = withX(1, 0, 5);
  await page.setInputFiles('#import-scenario', { name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(good)) });
  await page.waitForFunction(() => !document.querySelector('.alert'));
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), reference(good).output, 1e-12, 'imported');
  assert.deepEqual(problems, []);
  await context.close();
});

async function paste(page, selector, text) {
  await page.click(selector);
  await page.evaluate(([sel, t]) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.querySelector(sel).dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, [selector, text]);
}

test('pasting a NumPy matrix replaces the whole matrix; a wrong shape is refused', async () => {
  const { context, page, problems } = await fresh();
  const x = [[0.5, 1, -1, 2], [3, 0, 0, 1], [1, 1, 0.25, -2]];
  await paste(page, cellInput('x', 0, 0), 'array([[ 0.5 ,  1.  , -1.  ,  2.  ],\n       [ 3.  ,  0.  ,  0.  ,  1.  ],\n       [ 1.  ,  1.  ,  0.25, -2.  ]])');
  await page.waitForFunction(() => document.querySelector('[data-matrix="x"] [data-row="0"][data-col="0"]').dataset.value === '0.5');
  assert.deepEqual(await readMatrix(page, '[data-matrix="x"]'), x);
  const s = structuredClone(NOTE);
  s.x = x;
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), reference(s).output, 1e-12, 'output after paste');
  await paste(page, cellInput('x', 0, 0), 'tensor([[1., 2.], [3., 4.]])');
  const msg = await page.textContent('[data-matrix="x"] [role="alert"]');
  assert.match(msg, /3×4/);
  assert.match(msg, /2×2/);
  assert.deepEqual(await readMatrix(page, '[data-matrix="x"]'), x);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the column convention shows the same numbers transposed', async () => {
  const { context, page, problems } = await fresh();
  const names = ['x', 'q', 'k', 'v', 'scores', 'weights', 'head_output', 'output'];
  const read = async () => Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readMatrix(page, `[data-matrix="${n}"]`)])));
  const rows = await read();
  await page.click('input[name="convention"][value="col"]');
  await page.waitForFunction(() => location.search.includes('convention=col'));
  assert.deepEqual(await read(), rows, 'same data-row/data-col/data-value in both conventions');
  // On screen X now has one token per column: the header row names tokens.
  const header = await page.$$eval('[data-matrix="x"] thead th', (ths) => ths.map((t) => t.querySelector('input')?.value ?? t.textContent));
  assert.deepEqual(header.slice(1), ['input 1', 'input 2', 'input 3']);
  // Displayed first row of X is feature 1 of every token.
  const firstRow = await page.$$eval('[data-matrix="x"] tbody tr:first-child td', (tds) => tds.map((td) => `${td.dataset.row},${td.dataset.col}`));
  assert.deepEqual(firstRow, ['0,0', '1,0', '2,0']);
  await shot(page, 'workbench-col-en');
  // Editing in the column view edits the same number.
  await typeInto(page, cellInput('x', 0, 1), '2');
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), reference(withX(0, 1, 2)).output, 1e-12, 'edit in col view');
  // The convention is restored from the URL.
  await page.reload();
  await ready(page);
  assert.equal(await page.isChecked('input[name="convention"][value="col"]'), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('export results writes the engine numbers; export scenario round-trips', async () => {
  const { context, page, problems } = await fresh();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-results')]);
  const results = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const expected = reference(NOTE);
  assertClose(assert, results.output, expected.output, 1e-12, 'results.output');
  assertClose(assert, results.heads[0].weights, expected.heads[0].weights, 1e-12, 'results weights');
  assert.deepEqual(results.heads[0].scores, [[2, 4, 4], [4, 16, 12], [4, 12, 10]]);
  const [dl2] = await Promise.all([page.waitForEvent('download'), page.click('#export-scenario')]);
  const scenario = JSON.parse(readFileSync(await dl2.path(), 'utf8'));
  assert.equal(scenario.format, 'attention-lab/1');
  assert.deepEqual(scenario.x, NOTE.x);
  assert.deepEqual(scenario.heads, NOTE.heads);
  assert.equal(scenario.scale, false);
  assert.deepEqual(problems, []);
  await context.close();
});

test('selecting a score shows its derivation with the actual numbers', async () => {
  const { context, page, problems } = await fresh();
  await page.click('[data-matrix="scores"][data-head="1"] [data-row="0"][data-col="1"]');
  const text = await page.textContent('.derivation');
  // α(1,2) = q¹·k² = 1·4 + 0·4 + 2·0 = 4 (note 004's numbers).
  assert.ok(text.includes('1·4+0·4+2·0=4'), text);
  assert.ok(await page.$('.derivation math'), 'rendered as MathML');
  assert.equal(await page.getAttribute('.derivation li:last-child', 'data-value'), '4');
  await page.click('[data-matrix="weights"][data-head="1"] [data-row="0"][data-col="1"]');
  const w = await page.getAttribute('.derivation li:last-child', 'data-value');
  assert.equal(Number(w), reference(NOTE).heads[0].weights[0][1]);
  await shot(page, 'derivation-en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('dimensions, scaling and masks are controls; out-of-range is refused in place', async () => {
  const { context, page, problems } = await fresh();
  await page.fill('#dim-heads', '2');
  await page.press('#dim-heads', 'Enter');
  await page.waitForSelector('[data-matrix="weights"][data-head="2"]');
  assert.ok(await page.$('[data-matrix="concat"]'));
  await page.fill('#dim-n', '99');
  await page.press('#dim-n', 'Enter');
  assert.equal(await page.getAttribute('#dim-n', 'aria-invalid'), 'true');
  assert.match(await page.textContent('.field-error'), /1–64/);
  assert.equal((await readMatrix(page, '[data-matrix="x"]')).length, 3);
  await page.check('#opt-scale');
  await page.selectOption('#opt-mask', 'causal');
  // Off screen, a matrix follows an edit a frame later (docs/architecture.md,
  // "What an edit's frame holds"): read it once it shows the mask.
  await page.waitForFunction(() => document.querySelector('[data-matrix="weights"][data-head="1"] [data-row="0"][data-col="1"]')?.dataset.value === '0');
  const weights = await readMatrix(page, '[data-matrix="weights"][data-head="1"]');
  assert.equal(weights[0][1], 0);
  assert.equal(weights[0][0], 1);
  const scaled = await readMatrix(page, '[data-matrix="scaled"][data-head="1"]');
  assert.equal(scaled[1][1], 16 / Math.sqrt(3));
  await shot(page, 'workbench-two-heads-en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a refused dimension stays in its field beside its message; a commit elsewhere leaves a half-typed one alone', async () => {
  const { context, page, problems } = await fresh();
  await page.fill('#dim-d-model', '999');
  await page.press('#dim-d-model', 'Enter');
  await page.waitForSelector('#dim-d-model[aria-invalid="true"]');
  assert.match(await page.textContent('#dim-d-model-error'), /«999»/);
  assert.equal(await page.inputValue('#dim-d-model'), '999', 'the refused text is wiped when its message appears');
  assert.equal((await readMatrix(page, '[data-matrix="x"]'))[0].length, 4, 'nothing changed');
  // A committed edit in another field re-renders every field; the one
  // still being typed in (focus stays in it, so no change is committed)
  // keeps its text.
  await page.fill('#dim-d-k', '5');
  await page.$eval('#dim-n', (el) => {
    el.value = '4';
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForSelector('[data-matrix="x"] [data-row="3"]');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'dim-d-k');
  assert.equal(await page.inputValue('#dim-d-k'), '5', 'an edit elsewhere wiped the half-typed d_k');
  assert.equal((await readMatrix(page, '.workbench [data-matrix="q"][data-head="1"]'))[0].length, 3, 'd_k is not committed until the field is left');
  assert.deepEqual(problems, []);
  await context.close();
});

test('presets load and are undoable; the random preset shows its seed', async () => {
  const { context, page, problems } = await fresh();
  await page.selectOption('#preset', 'i-saw-a-saw');
  const x = await readMatrix(page, '[data-matrix="x"]');
  assert.deepEqual(x[1], x[3]);
  const out = await readMatrix(page, '[data-matrix="output"]');
  assert.notDeepEqual(out[1], out[3], 'the two saws differ after attention with positions');
  await page.selectOption('#preset', 'random');
  assert.ok(await page.$('#seed'));
  await page.fill('#seed', '7');
  await page.press('#seed', 'Enter');
  const a = await readMatrix(page, '[data-matrix="x"]');
  await page.click('#undo');
  assert.notDeepEqual(await readMatrix(page, '[data-matrix="x"]'), a, 'undo brings the previous preset back');
  assert.equal(await page.$eval('#preset', (s) => s.value), 'random');
  assert.equal(await page.inputValue('#seed'), '1');
  await page.click('#redo');
  assert.deepEqual(await readMatrix(page, '[data-matrix="x"]'), a);
  assert.equal(await page.inputValue('#seed'), '7');
  // An edited preset is no longer that preset.
  await typeInto(page, cellInput('x', 0, 0), '0.5');
  assert.equal(await page.$eval('#preset', (s) => s.value), '');
  assert.deepEqual(problems, []);
  await context.close();
});

test('with storage blocked (private mode, third-party iframe) the page still works quietly', async () => {
  const o = await openPage(browser);
  await o.context.addInitScript(() => {
    const deny = () => { throw new DOMException('The operation is insecure.', 'SecurityError'); };
    Object.defineProperty(window, 'localStorage', { get: deny, configurable: true });
  });
  await o.page.goto(BASE_URL + '?lang=en');
  await ready(o.page);
  await typeInto(o.page, cellInput('x', 0, 1), '2');
  assertClose(assert, await readMatrix(o.page, '[data-matrix="output"]'), reference(withX(0, 1, 2)).output, 1e-12, 'output');
  assert.equal(await o.page.$('.alert[role="alert"]'), null, 'nothing alarming is shown');
  assert.deepEqual(o.problems, []);
  await o.context.close();
});

test('a share link opens once; a reload keeps the edits made since, and undo returns to the saved work', async () => {
  const { context, page, problems } = await fresh();
  await typeInto(page, cellInput('x', 2, 2), '8');
  const saved = await readMatrix(page, '[data-matrix="x"]');
  const link = structuredClone(NOTE);
  link.x[0][0] = 3;
  await page.goto(BASE_URL + '?lang=en#s=' + Buffer.from(JSON.stringify(link)).toString('base64url'));
  await page.reload();
  await ready(page);
  assert.ok(!page.url().includes('#s='), 'the link left the address once opened');
  assert.equal((await readMatrix(page, '[data-matrix="x"]'))[0][0], 3);
  await typeInto(page, cellInput('x', 1, 1), '9');
  await page.reload();
  await ready(page);
  const x = await readMatrix(page, '[data-matrix="x"]');
  assert.equal(x[0][0], 3);
  assert.equal(x[1][1], 9, 'the edit survived the reload');
  assert.deepEqual(problems, []);
  await context.close();
});

test('pasting text into a token label renames it; arrows move after moving into a cell', async () => {
  const { context, page, problems } = await fresh();
  const label = '[data-matrix="x"] input[data-token="0"]';
  await page.fill(label, '');
  await paste(page, label, 'cat');
  await page.evaluate((sel) => { const el = document.querySelector(sel); el.value = 'cat'; el.dispatchEvent(new Event('change', { bubbles: true })); }, label);
  assert.equal(await page.$('[data-matrix="x"] [role="alert"]'), null, 'no refusal for a token paste');
  assert.equal(await page.inputValue(label), 'cat');
  assert.equal(await page.textContent('[data-matrix="output"] tbody tr:first-child th'), 'cat');
  await page.click(cellInput('x', 0, 0));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => { const td = document.activeElement.closest('td'); return `${td.dataset.row},${td.dataset.col}`; }), '1,1');
  assert.deepEqual(problems, []);
  await context.close();
});

test('one-hot positions: [X | E] has d_model + n columns, the outputs match the reference, export and share carry "onehot"', async () => {
  const { context, page, problems } = await fresh();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  const plain = await readMatrix(page, '[data-matrix="output"]');
  assert.equal(await page.$('[data-matrix="input"]'), null, 'no [X | E] without one-hot positions');
  await page.selectOption('#opt-positional', 'onehot');
  await page.waitForSelector('[data-matrix="input"] [data-value]');
  // n = 3, d_model = 4: the input is 3 × 7, X then the identity.
  const input = await readMatrix(page, '[data-matrix="input"]');
  assert.deepEqual(input, NOTE.x.map((row, p) => [...row, ...[0, 1, 2].map((j) => (j === p ? 1 : 0))]));
  assert.match(await page.textContent('[data-matrix="input"]'), /\[X \| E\]/);
  for (const name of ['w_q', 'w_k', 'w_v']) {
    assert.equal((await readMatrix(page, `[data-matrix="${name}"][data-head="1"]`)).length, 4 + 3, `${name} has d_model + n rows`);
  }
  assert.match(await page.textContent('.summary .dims'), /one-hot/);
  // The scenario on screen, exported, recomputed by the reference.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-scenario')]);
  const scenario = JSON.parse(readFileSync(await dl.path(), 'utf8'));
  assert.equal(scenario.positional, 'onehot');
  assert.equal(scenario.heads[0].w_q.length, 7);
  assert.deepEqual(scenario.heads[0].w_q.slice(0, 4), NOTE.heads[0].w_q, 'the x rows are note 004\'s');
  const expected = reference(scenario);
  assertClose(assert, input, expected.input, 0, 'input');
  const out = await readMatrix(page, '[data-matrix="output"]');
  assertClose(assert, out, expected.output, 1e-12, 'output');
  assertClose(assert, await readMatrix(page, '[data-matrix="q"][data-head="1"]'), expected.heads[0].q, 1e-12, 'q');
  assert.notDeepEqual(out, plain, 'positions change the outputs');
  // Editing a position row recomputes.
  await typeInto(page, cellInput('w_v', 5, 0, 1), '2');
  scenario.heads[0].w_v[5][0] = 2;
  const edited = reference(scenario).output;
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), edited, 1e-12, 'after editing position 2\'s row of W_V');
  await shot(page, 'workbench-onehot-en');
  // The share link carries "onehot" and reopens the same numbers.
  await page.click('#share');
  await page.waitForSelector('.status p');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const carried = JSON.parse(Buffer.from(link.split('#s=')[1], 'base64url').toString('utf8'));
  assert.equal(carried.positional, 'onehot');
  const other = await openPage(browser);
  await other.page.goto(link);
  await ready(other.page);
  assertClose(assert, await readMatrix(other.page, '[data-matrix="output"]'), edited, 1e-12, 'reopened');
  assert.equal(await other.page.$eval('#opt-positional', (s) => s.value), 'onehot');
  assert.equal((await readMatrix(other.page, '[data-matrix="input"]'))[0].length, 7);
  // The exported file imports too.
  await other.page.setInputFiles('#import-scenario', { name: 'onehot.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
  await other.page.waitForFunction(() => document.querySelector('[data-matrix="w_v"][data-head="1"] [data-row="5"][data-col="0"]')?.dataset.value === '2');
  assertClose(assert, await readMatrix(other.page, '[data-matrix="output"]'), edited, 1e-12, 'imported');
  // Back to no positions: the position rows go, undo brings them back.
  await page.selectOption('#opt-positional', 'none');
  await page.waitForFunction(() => !document.querySelector('[data-matrix="input"]'));
  assert.equal((await readMatrix(page, '[data-matrix="w_q"][data-head="1"]')).length, 4);
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), plain, 1e-12, 'without positions');
  await page.click('#undo');
  await page.waitForSelector('[data-matrix="input"] [data-value]');
  assertClose(assert, await readMatrix(page, '[data-matrix="output"]'), edited, 1e-12, 'undo');
  assert.deepEqual([...problems, ...other.problems], []);
  await other.context.close();
  await context.close();
});

test('one-hot positions in Chinese: the option, the caption, and a file with too few rows refused in Chinese', async () => {
  const { context, page, problems } = await openPage(browser, { locale: 'zh-CN' });
  await page.goto(BASE_URL + '?lang=zh');
  await ready(page);
  const option = await page.$eval('#opt-positional option[value="onehot"]', (o) => o.textContent);
  assert.equal(option, '独热位置向量 eⁱ，拼接在 X 后');
  await page.selectOption('#opt-positional', 'onehot');
  await page.waitForSelector('[data-matrix="input"] [data-value]');
  const caption = await page.textContent('[data-matrix="input"]');
  assert.match(caption, /拼接独热位置向量/);
  // W_Q's shape says the position rows.
  assert.match(await page.textContent('[data-matrix="w_q"][data-head="1"]'), /model\s*\+\s*n/);
  const before = await readMatrix(page, '[data-matrix="output"]');
  const bad = { ...structuredClone(NOTE), positional: 'onehot' };
  await page.setInputFiles('#import-scenario', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await page.waitForSelector('.alert[role="alert"]');
  const alert = await page.textContent('.alert[role="alert"]');
  assert.ok(alert.includes('heads[0].w_q：应为 (d_model + n)×3 = (4 + 3)×3 = 7×3'), alert);
  assert.ok(alert.includes('实际是 4×3'), alert);
  assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), before, 'a refused file changes nothing');
  await shot(page, 'workbench-onehot-zh');
  assert.deepEqual(problems, []);
  await context.close();
});
