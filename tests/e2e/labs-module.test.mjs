// The labs' chunk (docs/architecture.md, "One module and its chunks"): the
// seven labs' code is split off the page's WebAssembly module into a chunk
// of its own. The first screen never downloads it; the full page loads it
// after its first paint; an embedded lab loads it at once, also in a
// sandboxed frame on another origin; a locked page's labs edit nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, shareFragment, TWO_HEADS, BASE_URL, hostServer, withEditToUndo } from './helpers.mjs';

let browser;
let host;
before(async () => {
  browser = await launch();
  host = await hostServer();
});
after(async () => {
  await browser?.close();
  host?.close();
});

const isLabs = (url) => /\/labs-[0-9a-f]{16}\.wasm$/.test(new URL(url).pathname);

for (const view of ['walkthrough', 'heatmaps', 'workbench']) {
  test(`an embedded ${view} never downloads the labs' chunk`, async () => {
    const { context, page, problems } = await openPage(browser);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${BASE_URL}?lang=en&embed=1&view=${view}${shareFragment(TWO_HEADS)}`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter(isLabs), []);
    assert.equal(await page.$('section.labs'), null);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('the full page loads the labs\' chunk after its own module, once, into the labs section', async () => {
  const { context, page, problems } = await openPage(browser);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${BASE_URL}?lang=en`);
  await page.waitForSelector('section.labs [data-lab="cost"]');
  await page.waitForLoadState('networkidle');
  const labs = requests.filter(isLabs);
  assert.equal(labs.length, 1, labs.join(' '));
  const main = requests.findIndex((u) => /\/attention-lab-[0-9a-f]+_bg\.wasm$/.test(u));
  assert.ok(main >= 0 && main < requests.findIndex(isLabs), 'the page\'s own wasm comes first');
  // Beside the page's own module (any sub-path), and no second copy of the
  // runtime: no other module's JS glue.
  assert.equal(new URL(labs[0]).href, new URL(labs[0].split('/').pop(), requests[main]).href);
  assert.deepEqual(requests.filter((u) => /\/(labs|train)-[0-9a-f]{16}\.js$/.test(u)), []);
  assert.equal(await page.$eval('section.labs', (s) => s.firstElementChild.className), 'labs-title');
  assert.equal(await page.$$eval('section.labs [data-lab]', (l) => l.length), 7);
  assert.deepEqual(problems, []);
  await context.close();
});

test('when the labs\' chunk cannot load, the section says so and the page goes on working', async () => {
  const { context, page } = await openPage(browser);
  await page.route(/\/labs-[0-9a-f]{16}\.wasm$/, (route) => route.abort());
  await page.goto(`${BASE_URL}?lang=en`);
  await page.waitForSelector('section.labs[data-labs="failed"] [role="alert"]');
  assert.match(await page.textContent('section.labs [role="alert"]'), /could not be loaded/);
  assert.equal(await page.$('section.labs [data-lab]'), null);
  // An edit still recomputes the output.
  const cell = '[data-matrix="x"] [data-row="0"][data-col="0"] input';
  const before = await page.getAttribute('[data-matrix="output"] [data-row="0"][data-col="0"]', 'data-value');
  await page.fill(cell, '7');
  await page.press(cell, 'Enter');
  await page.waitForFunction((v) => document.querySelector('[data-matrix="output"] [data-row="0"][data-col="0"]').dataset.value !== v, before);
  await context.close();
});

test('the labs\' section says loading while their chunk loads, and "Try again" loads it after a failure', async () => {
  const { context, page, problems } = await openPage(browser);
  // The first request is held, then dropped (a connection lost); the next
  // one goes through.
  let release;
  const held = new Promise((r) => { release = r; });
  let tries = 0;
  await page.route(/\/labs-[0-9a-f]{16}\.wasm$/, async (route) => {
    tries += 1;
    if (tries === 1) {
      await held;
      await route.abort();
    } else {
      await route.continue();
    }
  });
  await page.goto(`${BASE_URL}?lang=en`);
  await page.waitForSelector('section.labs[data-labs="loading"]');
  assert.equal(await page.$('section.labs > *'), null, 'nothing in the section while the chunk loads');
  release();
  await page.waitForSelector('section.labs[data-labs="failed"] [role="alert"] [data-control="retry-labs"]');
  assert.equal(await page.textContent('section.labs [data-control="retry-labs"]'), 'Try again');
  await page.click('section.labs [data-control="retry-labs"]');
  await page.waitForSelector('section.labs [data-lab="cost"]');
  assert.equal(tries, 2);
  assert.equal(await page.getAttribute('section.labs', 'data-labs'), null);
  assert.equal(await page.$('section.labs [role="alert"]'), null);
  assert.equal(await page.$eval('section.labs', (s) => s.firstElementChild.className), 'labs-title');
  assert.equal(await page.$$eval('section.labs [data-lab]', (l) => l.length), 7);
  // The labs follow an edit made after they arrived.
  await page.click('[data-lab="masks"] .predict .skip');
  await page.waitForSelector('[data-lab="masks"] [data-mini="after"]');
  const cell = '[data-matrix="x"] [data-row="0"][data-col="0"] input';
  const before = await page.$eval('[data-lab="masks"] [data-mini="after"]', (t) => t.textContent);
  await page.fill(cell, '7');
  await page.press(cell, 'Enter');
  await page.waitForFunction((v) => document.querySelector('[data-lab="masks"] [data-mini="after"]').textContent !== v, before);
  // A console error for the dropped request is the browser's own.
  assert.deepEqual(problems.filter((p) => !/Failed to (load resource|fetch)|ERR_FAILED/.test(p)), []);
  await context.close();
});

test('the labs follow the language and the layout of the page', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=en`);
  await page.waitForSelector('section.labs [data-lab="scoring"]');
  const title = () => page.$eval('section.labs .labs-title', (h) => h.textContent);
  const en = await title();
  await page.click('.lang-switch');
  await page.waitForFunction((t) => document.querySelector('section.labs .labs-title').textContent !== t, en);
  assert.equal(await page.getAttribute('section.labs', 'aria-label'), await title());
  // The column layout: the scoring lab shows one query per column.
  await page.click('[data-lab="scoring"] .predict .skip');
  const firstRow = '[data-way="dot"] [data-mini="weights"] tr:first-child td';
  const rows = () => page.$$eval(firstRow, (tds) => tds.map((t) => t.dataset.row).join());
  assert.equal(await rows(), '0,0,0');
  await page.check('input[name="convention"][value="col"]');
  await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].map((t) => t.dataset.row).join() !== '0,0,0', firstRow);
  assert.equal(await rows(), '0,1,2');
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a locked full page the labs edit nothing', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=en&lock=1${shareFragment(TWO_HEADS)}`);
  await ready(page);
  await page.click('[data-lab="masks"] .predict .skip');
  await page.waitForSelector('[data-lab="masks"] .mask-grid button');
  assert.equal(await page.$$eval('[data-lab="masks"] .mask-grid button:not([disabled])', (b) => b.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a lab embedded in a sandboxed frame on another origin loads the labs\' chunk', async () => {
  const src = `${BASE_URL}?embed=1&view=masks&lang=en&lock=1${shareFragment(TWO_HEADS)}`;
  host.pages.set('/labs.html', `<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>host</title>
<body style="margin:0"><iframe id="f0" src="${src}" sandbox="allow-scripts" style="width:700px;height:600px;border:0" title="figure"></iframe>`);
  const { context, page, problems } = await openPage(browser, { viewport: { width: 800, height: 1400 }, origin: host.base });
  await page.goto(`${host.base}/labs.html`);
  const f = await (await page.$('#f0')).contentFrame();
  await f.waitForSelector('section.labs [data-lab="masks"]', { timeout: 30000 });
  assert.equal(await f.$$eval('section.labs [data-lab]', (l) => l.length), 1);
  assert.equal(await f.$('section.labs[data-labs="failed"]'), null);
  await f.click('[data-lab="masks"] .predict .skip');
  await f.waitForSelector('[data-lab="masks"] .mask-grid button');
  assert.deepEqual(problems.filter((p) => !p.includes(new URL(BASE_URL).origin)), []);
  await context.close();
});

test('an event inside the labs never runs one of the page\'s listeners', async () => {
  // Both modules' Yew apps brand their elements with a root number; with
  // the same number the page once ran its own listener for a click in a
  // lab (the mask grid's click ran Undo). Every lab's buttons are clicked
  // here with an edit to undo on the page: undo, redo and the edit stay.
  const { context, page, problems } = await openPage(browser);
  const cell = await withEditToUndo(page);
  await page.waitForSelector('[data-lab="cost"]');
  for (const lab of await page.$$eval('section.labs [data-lab]', (ls) => ls.map((l) => l.dataset.lab))) {
    await page.click(`[data-lab="${lab}"] .predict .skip`);
    await page.waitForSelector(`[data-lab="${lab}"] .verdict`);
  }
  for (const button of ['.shuffle', '.unshuffle', '.chip[data-place="0"]', '.chip[data-place="1"]', '.lin-fwd', '.lin-back']) {
    await page.click(`[data-lab] ${button}`);
  }
  await page.click('[data-lab="masks"] .mask-grid button[data-row="1"][data-col="0"]');
  await page.waitForFunction(() => document.querySelector('#opt-mask').value === 'custom');
  assert.equal(await page.getAttribute(cell, 'data-value'), '7', 'the edit stays');
  assert.equal(await page.$eval('#redo', (b) => b.disabled), true, 'nothing was undone');
  assert.deepEqual(problems, []);
  await context.close();
});
