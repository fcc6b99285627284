// What a phone shows: the stage's controls are tap targets of at least
// 24 × 24 px, nothing scrolls the page sideways at 320 px (the stage, every
// lab on the full page and embedded), a cell's exact value reaches a finger
// (no hover), and a browser that cannot run the app says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Controls of `scope` smaller than 24 × 24 px (those drawn at all). */
const smallTargets = (page, scope) => page.$$eval(`${scope} :is(button, input, select)`, (els) => els
  .map((el) => ({ el, r: el.getBoundingClientRect() }))
  .filter(({ r }) => r.width > 0 && (r.width < 24 || r.height < 24))
  .map(({ el, r }) => `${el.id || el.getAttribute('aria-label') || el.textContent.trim()} ${r.width.toFixed(1)}×${r.height.toFixed(1)}`));

const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);

for (const lang of ['zh', 'en']) {
  test(`a phone (${lang}): 24 px targets on the stage, no sideways scroll at 320 px on the page and in every lab`, async () => {
    for (const [w, h] of [[390, 844], [320, 640]]) {
      const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h }, hasTouch: true, isMobile: true, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      await page.goto(`${BASE_URL}?lang=${lang}`);
      await ready(page);
      assert.deepEqual(await smallTargets(page, '[data-figure="stage"]'), [], `${w} px: stage controls under 24 px`);
      // Every lab on the full page, revealed (their figures wait for an
      // answer). The list is the page's: the labs its section shows once
      // their chunk has loaded.
      await page.waitForSelector('section.labs:not([data-labs]) [data-lab]');
      const labs = await page.$$eval('section.labs [data-lab]', (els) => els.map((e) => e.dataset.lab));
      assert.ok(labs.length > 0 && labs.includes('cost'), `${labs}`);
      await page.$$eval('[data-lab] .predict .skip', (bs) => bs.forEach((b) => b.click()));
      await page.waitForFunction((n) => document.querySelectorAll('[data-lab] .verdict').length === n, labs.length);
      assert.ok(await sideways(page) <= 0, `${w} px: the full page scrolls sideways by ${await sideways(page)} px`);
      if (w === 320) {
        for (const lab of labs) {
          await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=${lab}`);
          await ready(page);
          await page.click('[data-lab] .predict .skip');
          await page.waitForSelector('[data-lab] .verdict');
          assert.ok(await sideways(page) <= 0, `${lab} at 320 px scrolls sideways by ${await sideways(page)} px`);
        }
        await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=walkthrough`);
        await ready(page);
        assert.ok(await sideways(page) <= 0, `the embedded stage at 320 px scrolls sideways by ${await sideways(page)} px`);
        assert.deepEqual(await smallTargets(page, '[data-figure="stage"]'), [], 'embedded stage controls under 24 px');
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
  });
}

test("a tap on a computed cell shows its exact value (a finger has no tooltip)", async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  const cell = '[data-matrix="weights"][data-head="1"] [data-row="0"][data-col="1"]';
  await page.tap(cell);
  await page.waitForSelector('.derivation .exact [data-exact]');
  const value = await page.getAttribute(cell, 'data-value');
  assert.equal(value, '0.4683105308334812');
  assert.equal(await page.textContent('.derivation .exact [data-exact]'), value);
  assert.ok(await page.isVisible('.derivation .exact'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a browser without WebAssembly SIMD is told so, in both languages', async () => {
  for (const init of [
    // As in Safari 16.3: WebAssembly, but no SIMD (the app's module then
    // fails to compile).
    () => {
      const fail = () => Promise.reject(new WebAssembly.CompileError('SIMD unsupported'));
      WebAssembly.validate = () => false;
      WebAssembly.instantiate = fail;
      WebAssembly.instantiateStreaming = fail;
    },
    () => { delete globalThis.WebAssembly; },
  ]) {
    const { context, page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await context.addInitScript(init);
    await page.goto(`${BASE_URL}?lang=en`);
    await page.waitForSelector('[data-unsupported][role="alert"]');
    const text = await page.textContent('[data-unsupported]');
    assert.match(text, /WebAssembly SIMD/);
    assert.match(text, /Safari 16\.4.*Firefox 89.*Chrome 91/);
    assert.match(text, /这个浏览器无法运行注意力实验室/);
    assert.ok(await page.isVisible('[data-unsupported]'));
    await context.close();
  }
  // A browser that can run it shows no such message.
  const { context, page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  assert.equal(await page.$('[data-unsupported]'), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the masks lab paints a row with a finger drag, as with a mouse', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.goto(`${BASE_URL}?lang=en&embed=1&view=masks`);
  await ready(page);
  await page.click('[data-lab] .predict .skip');
  const cell = (i, j) => `[data-lab="masks"] .mask-grid button[data-row="${i}"][data-col="${j}"]`;
  await page.waitForSelector(cell(2, 2));
  await page.$eval(cell(2, 0), (el) => el.scrollIntoView({ block: 'center' }));
  const centre = async (i, j) => { const b = await (await page.$(cell(i, j))).boundingBox(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; };
  const from = await centre(2, 0);
  const to = await centre(2, 2);
  const on = String((await page.getAttribute(cell(2, 0), 'data-value')) !== 'true');
  // Real touch events (CDP), as a phone sends them.
  const cdp = await context.newCDPSession(page);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [] });
  await touch('touchStart', from);
  for (let k = 1; k <= 6; k++) await touch('touchMove', { x: from.x + ((to.x - from.x) * k) / 6, y: from.y });
  await touch('touchEnd');
  await page.waitForFunction(([sel, v]) => document.querySelector(sel).dataset.value === v, [cell(2, 2), on]);
  for (let j = 0; j <= 2; j++) assert.equal(await page.getAttribute(cell(2, j), 'data-value'), on, `cell 3,${j + 1}`);
  assert.deepEqual(problems, []);
  await context.close();
});
