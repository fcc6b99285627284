// Labs II: positions (F8), masks (F9), dropout (F12). Each at
// view=NAME in both languages; the numbers come from the engine and react
// to the lab's controls; the mask editor edits the scenario itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, readMatrix, shareFragment, TWO_HEADS, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openLab(name, lang, query = '', fragment = '') {
  const o = await openPage(browser, { viewport: { width: 700, height: 900 } });
  await o.page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=${name}${query}${fragment}`);
  await ready(o.page);
  const lab = `[data-lab="${name}"]`;
  assert.ok(await o.page.$(lab));
  return { ...o, lab };
}

for (const lang of ['zh', 'en']) {
  test(`positions lab (${lang}): the pair, the shuffle check, the encoding`, async () => {
    const { context, page, problems, lab } = await openLab('positions', lang);
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector(`${lab} [data-check="none"]`);
    assert.match(await page.textContent(`${lab} .verdict`), lang === 'zh' ? /猜对了/ : /Right/);
    // 我喜欢你 / 你喜欢我: 我's row is the same without PE, not with it.
    assert.equal(await page.getAttribute(`${lab} [data-pair="none"]`, 'data-equal'), 'true');
    assert.equal(await page.getAttribute(`${lab} [data-pair="sinusoidal"]`, 'data-equal'), 'false');
    const row = (pair, table, r) => page.$$eval(`${lab} [data-pair="${pair}"] [data-outputs="${table}"] [data-row="${r}"]`, (tds) => tds.map((t) => t.dataset.value).join());
    assert.equal(await row('none', 'first', 0), await row('none', 'second', 2));
    assert.notEqual(await row('sinusoidal', 'first', 0), await row('sinusoidal', 'second', 2));
    // The current scenario shuffled: equal without PE, not equal with it.
    const equal = (id) => page.getAttribute(`${lab} [data-check="${id}"]`, 'data-equal');
    assert.equal(await equal('none'), 'true');
    assert.equal(await equal('sinusoidal'), 'false');
    assert.match(await page.textContent(`${lab} [data-check="none"] .verdict-line`), lang === 'zh' ? /是/ : /yes/);
    assert.match(await page.textContent(`${lab} [data-check="sinusoidal"] .verdict-line`), lang === 'zh' ? /否/ : /no/);
    // Back to the original order: now both are equal (nothing moved).
    await page.click(`${lab} .unshuffle`);
    await page.waitForFunction(() => document.querySelector('[data-check="sinusoidal"]').dataset.equal === 'true');
    assert.equal(await page.getAttribute(`${lab} .chips`, 'data-order'), '0,1,2');
    // Click two tokens to swap them, then drag one onto another.
    await page.click(`${lab} .chip[data-place="0"]`);
    await page.click(`${lab} .chip[data-place="2"]`);
    await page.waitForFunction(() => document.querySelector('.chips').dataset.order === '2,1,0');
    assert.equal(await equal('none'), 'true');
    assert.equal(await equal('sinusoidal'), 'false');
    await page.dragAndDrop(`${lab} .chip[data-place="0"]`, `${lab} .chip[data-place="1"]`);
    await page.waitForFunction(() => document.querySelector('.chips').dataset.order === '1,2,0');
    // The shuffle button always moves something.
    await page.click(`${lab} .shuffle`);
    await page.waitForFunction(() => document.querySelector('.chips').dataset.order !== '1,2,0');
    assert.equal(await equal('none'), 'true');
    // Note 001's variant: a one-hot position concatenated. Order matters again.
    await page.check(`${lab} input[name="lab-pe"][value="onehot"]`);
    await page.waitForSelector(`${lab} [data-check="onehot"]`);
    assert.equal(await equal('onehot'), 'false');
    assert.equal(await equal('none'), 'true');
    assert.equal(await page.getAttribute(`${lab} [data-pair="onehot"]`, 'data-equal'), 'false');
    // The encoding as a heatmap, with the scenario's part framed.
    assert.equal(await page.$$eval(`${lab} svg[data-pe-map] rect`, (r) => r.length), 32 * 32 + 1);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`masks lab (${lang}): presets, grid, graph, and the blind rows named`, async () => {
    const { context, page, problems, lab } = await openLab('masks', lang, '', shareFragment(TWO_HEADS));
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector(`${lab} table.mask-grid`);
    const cell = (i, j) => `${lab} .mask-grid button[data-row="${i}"][data-col="${j}"]`;
    const on = (i, j) => page.getAttribute(cell(i, j), 'data-value');
    // TWO_HEADS is causal.
    assert.equal(await on(0, 1), 'false');
    assert.equal(await on(1, 0), 'true');
    await page.click(`${lab} [data-preset="full"]`);
    await page.waitForFunction(() => document.querySelector('.mask-grid button[data-row="0"][data-col="1"]').dataset.value === 'true');
    // Window W = 1 (a CNN's receptive field of 3).
    await page.fill('#lab-mask-w', '1');
    await page.press('#lab-mask-w', 'Enter');
    await page.click(`${lab} [data-preset="window"]`);
    await page.waitForFunction(() => document.querySelector('.mask-grid button[data-row="0"][data-col="2"]').dataset.value === 'false');
    assert.match(await page.textContent(`${lab} [data-mask-name]`), /W = 1/);
    // Graph: the star has node 1 as a hub; nodes 2 and 3 do not see each other.
    await page.click(`${lab} [data-preset="graph"]`);
    await page.waitForFunction(() => document.querySelector('.mask-grid button[data-row="1"][data-col="2"]').dataset.value === 'false');
    assert.equal(await on(0, 3), 'true');
    assert.equal(await page.$$eval(`${lab} [data-graph] line`, (l) => l.length), 3);
    const weight = (i, j) => page.getAttribute(`${lab} [data-mini="after"] [data-row="${i}"][data-col="${j}"]`, 'data-value').then(Number);
    assert.equal(await weight(1, 2), 0);
    // Adding the edge 2 – 3 lets query 2 see key 3.
    await page.click(`${lab} [data-node="1"]`);
    await page.click(`${lab} [data-node="2"]`);
    await page.waitForFunction(() => document.querySelector('.mask-grid button[data-row="1"][data-col="2"]').dataset.value === 'true');
    assert.equal(await on(2, 1), 'true');
    assert.ok((await weight(1, 2)) > 0);
    assert.equal(await page.$$eval(`${lab} [data-graph] line`, (l) => l.length), 4);
    // Self-loops off: node 4 (a leaf) now sees only the hub.
    await page.click(`${lab} .graph input[type="checkbox"]`);
    await page.waitForFunction(() => document.querySelector('.mask-grid button[data-row="3"][data-col="3"]').dataset.value === 'false');
    // Drag over row 4 to hide every key from query 4: it is named as blind.
    const box = async (i, j) => { const b = await (await page.$(cell(i, j))).boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
    const [x0, y0] = await box(3, 0);
    const [x3] = await box(3, 3);
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x3, y0, { steps: 6 });
    await page.mouse.up();
    await page.waitForSelector(`${lab} [data-blind="3"]`);
    for (let j = 0; j < 4; j++) assert.equal(await on(3, j), 'false');
    // Keyboard: arrows move, Enter flips.
    await page.focus(cell(0, 0));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.mask-grid button[data-row="3"][data-col="0"]').dataset.value === 'true');
    assert.equal(await page.$(`${lab} [data-blind]`), null);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`dropout lab (${lang}): the strip, training changes the weights and back`, async () => {
    const { context, page, problems, lab } = await openLab('dropout', lang, '', shareFragment(TWO_HEADS));
    await page.click(`${lab} [data-answer="1"]`);
    await page.waitForSelector(`${lab} table.strip`);
    const stage = (s) => page.$$eval(`${lab} table.strip td[data-stage="${s}"]`, (tds) => tds.map((t) => t.dataset.value));
    // TWO_HEADS scales and is causal: ÷√2 is a stage, query 1's later keys are −∞.
    assert.ok(await page.$(`${lab} th[data-stage-head="scaled"]`));
    const masked = await stage('mask');
    assert.deepEqual(masked.slice(1), ['-inf', '-inf', '-inf']);
    assert.deepEqual(await stage('dropout'), await stage('softmax'));
    assert.equal(Number(await page.getAttribute(`${lab} [data-sum="dropout"]`, 'data-value')), 1);
    // Query 4 of head 2, then training with p = 0.5.
    await page.selectOption('#lab-dropout-query', '3');
    await page.selectOption('#lab-dropout-head', '1');
    await page.waitForFunction(() => document.querySelectorAll('table.strip td[data-stage="mask"][data-value="-inf"]').length === 0);
    const inference = await stage('dropout');
    const weights = await stage('softmax');
    await page.check(`${lab} input[value="training"]`);
    await page.waitForSelector(`${lab} table[data-strip="training"]`);
    const trained = await stage('dropout');
    assert.notDeepEqual(trained, inference);
    trained.forEach((v, j) => assert.ok(Number(v) === 0 || Math.abs(Number(v) - 2 * Number(weights[j])) < 1e-15, `${v} vs ${weights[j]}`));
    // A fixed seed is a fixed draw; a new seed another one.
    await page.click(`${lab} .new-seed`);
    await page.waitForFunction(() => document.querySelector('#lab-dropout-seed').value === '2');
    await page.fill('#lab-dropout-seed', '1');
    await page.press('#lab-dropout-seed', 'Enter');
    await page.waitForFunction((t) => [...document.querySelectorAll('table.strip td[data-stage="dropout"]')].map((td) => td.dataset.value).join() === t, trained.join());
    // Bad input: a message where it was typed, the last good rate stays.
    await page.fill('#lab-dropout-p', '1.5');
    await page.press('#lab-dropout-p', 'Enter');
    await page.waitForSelector('#lab-dropout-p[aria-invalid="true"]');
    assert.ok(await page.$(`${lab} [role="alert"]`));
    assert.deepEqual(await stage('dropout'), trained);
    // Back to inference: the weights again.
    await page.check(`${lab} input[value="inference"]`);
    await page.waitForSelector(`${lab} table[data-strip="inference"]`);
    assert.deepEqual(await stage('dropout'), inference);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('the mask editor edits the scenario: the workbench weights and the share link follow, undo restores', async () => {
  const { context, page, problems } = await openPage(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  const lab = '[data-lab="masks"]';
  await page.click(`${lab} .predict .skip`);
  await page.waitForSelector(`${lab} table.mask-grid`);
  const workbench = '[data-matrix="weights"][data-head="1"]';
  const before = await readMatrix(page, workbench);
  assert.ok(before[0][1] > 0);
  // Hide key 2 from query 1 with a click on the grid.
  await page.click(`${lab} .mask-grid button[data-row="0"][data-col="1"]`);
  await page.waitForFunction((sel) => Number(document.querySelector(`${sel} [data-row="0"][data-col="1"]`).dataset.value) === 0, workbench);
  const after = await readMatrix(page, workbench);
  assert.equal(after[0][1], 0);
  // The remaining two weights of row 1 are the softmax of their scores alone.
  assert.ok(Math.abs(after[0][0] + after[0][2] - 1) < 1e-12);
  assert.deepEqual(after[1], before[1]);
  assert.equal(await page.$eval('#opt-mask', (s) => s.value), 'custom');
  // The share link carries the custom mask.
  await page.click('#share');
  await page.waitForSelector('.status p');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const doc = JSON.parse(Buffer.from(link.split('#s=')[1], 'base64url').toString('utf8'));
  assert.deepEqual(doc.mask, { custom: [[true, false, true], [true, true, true], [true, true, true]] });
  // Undo puts the weight back.
  await page.click('#undo');
  await page.waitForFunction((sel) => Number(document.querySelector(`${sel} [data-row="0"][data-col="1"]`).dataset.value) > 0, workbench);
  // The link opens the same mask, in the lab too (a fresh load, not a hash change).
  await page.goto('about:blank');
  await page.goto(link);
  await ready(page);
  await page.click(`${lab} .predict .skip`);
  assert.equal(await page.getAttribute(`${lab} .mask-grid button[data-row="0"][data-col="1"]`, 'data-value'), 'false');
  assert.equal(Number(await page.getAttribute(`${workbench} [data-row="0"][data-col="1"]`, 'data-value')), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a locked page the mask is shown, not editable', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=zh&embed=1&view=masks&lock=1${shareFragment(TWO_HEADS)}`);
  await ready(page);
  await page.click('[data-lab="masks"] .predict .skip');
  assert.equal(await page.$$eval('[data-lab="masks"] .mask-grid button:not([disabled])', (b) => b.length), 0);
  assert.equal(await page.$$eval('[data-lab="masks"] .mask-presets button:not([disabled])', (b) => b.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
