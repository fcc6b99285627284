// The animated walkthrough: speeds, stepping, the URL, what lights
// up, edits while playing, reduced motion, and no matrix re-rendering.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, shot, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const player = '.player';
const attr = (page, name) => page.getAttribute(player, name);
/** Waits (briefly) until the player's `data-NAME` is `value`: renders
 * follow events asynchronously. */
async function expectAttr(page, name, value) {
  try {
    await page.waitForFunction(([n, v]) => document.querySelector('.player')?.getAttribute(n) === v, [name, String(value)], { timeout: 3000 });
  } catch {
    assert.equal(await attr(page, name), String(value));
  }
}
const expectStep = (page, n) => expectAttr(page, 'data-step', n);

async function fresh(query = '', opts) {
  const o = await openPage(browser, opts);
  await o.page.goto(BASE_URL + '?lang=en' + query);
  await ready(o.page);
  return o;
}

/** Plays from the start at `speed` until the clock reaches `target` virtual
 * ms (waiting for that state, not for a fixed time), then pauses. Returns
 * the virtual time reached and the wall time it took, both measured in the
 * page. */
async function playUntil(page, speed, target) {
  await page.click('#wt-restart');
  await page.click(`.speeds button:text("${speed}×")`);
  await expectAttr(page, 'data-time', 0);
  return page.evaluate((target) => new Promise((resolve) => {
    const p = document.querySelector('.player');
    const play = document.querySelector('#wt-play');
    const t0 = performance.now();
    play.click();
    const tick = () => {
      if (Number(p.dataset.time) < target) { requestAnimationFrame(tick); return; }
      const wall = performance.now() - t0;
      play.click();
      resolve({ time: Number(p.dataset.time), wall });
    };
    requestAnimationFrame(tick);
  }), target);
}

test('the time reached scales with the speed', async () => {
  const { context, page, problems } = await fresh();
  // About 2 s of wall time each.
  const fast = await playUntil(page, 1.5, 3000);
  await expectAttr(page, 'data-playing', 'false');
  const fastStep = Number(await attr(page, 'data-step'));
  const slow = await playUntil(page, 0.5, 1000);
  await expectAttr(page, 'data-playing', 'false');
  const slowStep = Number(await attr(page, 'data-step'));
  const [fastRate, slowRate] = [fast.time / fast.wall, slow.time / slow.wall];
  // Virtual time runs at the speed; the first frame's delay only slows it.
  assert.ok(fastRate > 0.9 && fastRate < 1.75, `1.5×: ${fast.time} virtual ms in ${fast.wall} ms`);
  assert.ok(slowRate > 0.3 && slowRate < 0.58, `0.5×: ${slow.time} virtual ms in ${slow.wall} ms`);
  const ratio = fastRate / slowRate;
  assert.ok(ratio > 2.2 && ratio < 3.8, `ratio ${ratio}`);
  assert.ok(fastStep > slowStep, `steps ${fastStep} vs ${slowStep}`);
  assert.equal(await attr(page, 'data-speed'), '0.5');
  assert.match(page.url(), /speed=0\.5/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('step buttons, the keyboard and ?step= move through the steps', async () => {
  const { context, page, problems } = await fresh('&step=5');
  await expectStep(page, 5);
  await page.click('#wt-fwd');
  await expectStep(page, 6);
  assert.match(page.url(), /step=6/);
  await page.click('#wt-back');
  await page.click('#wt-back');
  await expectStep(page, 4);
  await page.click('h1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expectStep(page, 6);
  await page.keyboard.press('ArrowLeft');
  await expectStep(page, 5);
  await page.keyboard.press('Space');
  await expectAttr(page, 'data-playing', 'true');
  await page.keyboard.press('Space');
  await expectAttr(page, 'data-playing', 'false');
  await page.click('#wt-restart');
  await expectStep(page, 1);
  // A reload restores the step and the speed from the address.
  await page.goto(BASE_URL + '?lang=en&step=9&speed=1.5');
  await ready(page);
  await expectStep(page, 9);
  assert.equal(await page.getAttribute('.speeds button[aria-pressed="true"]', 'aria-pressed'), 'true');
  assert.equal(await page.textContent('.speeds button[aria-pressed="true"]'), '1.5×');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a dot product lights q and k; the weighted sum tints the value rows', async () => {
  // Every dot product: step 5 is α(1,1) of note 004.
  const { context, page, problems } = await fresh('&granularity=dot&step=5');
  assert.match(await page.textContent('.player-caption'), /q¹ \(input 1\) and k¹ \(input 1\)/);
  const shadow = (sel) => page.$eval(sel, (el) => getComputedStyle(el).boxShadow);
  assert.notEqual(await shadow('[data-matrix="q"][data-head="1"] td[data-row="0"][data-col="1"]'), 'none');
  assert.notEqual(await shadow('[data-matrix="k"][data-head="1"] td[data-row="0"][data-col="1"]'), 'none');
  assert.equal(await shadow('[data-matrix="k"][data-head="1"] td[data-row="1"][data-col="1"]'), 'none');
  assert.notEqual(await shadow('[data-matrix="scores"][data-head="1"] td[data-row="0"][data-col="0"]'), 'none');
  await shot(page, 'walkthrough-dot-en');
  // Step 9: the weighted sum b^1 (no scaling, so no ÷√d_k step); value rows
  // tinted by weights 0.063, 0.468, 0.468.
  await page.goto(BASE_URL + '?lang=en&granularity=dot&step=9');
  await ready(page);
  assert.match(await page.textContent('.player-caption'), /b¹/);
  const alpha = (r) => page.$eval(`[data-matrix="v"][data-head="1"] td[data-row="${r}"][data-col="0"]`,
    (el) => Number(getComputedStyle(el).backgroundColor.match(/rgba?\(([^)]+)\)/)[1].split(',')[3] ?? 1));
  const [a0, a1, a2] = [await alpha(0), await alpha(1), await alpha(2)];
  assert.ok(a1 > a0 + 0.2, `heavier weight, stronger tint: ${a0} vs ${a1}`);
  assert.ok(Math.abs(a1 - a2) < 0.01, `equal weights, equal tint: ${a1} vs ${a2}`);
  await shot(page, 'walkthrough-weighted-sum-en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('playback does not re-render the matrices', async () => {
  const { context, page, problems } = await fresh('&granularity=dot');
  await page.evaluate(() => {
    window.__mutations = 0;
    const obs = new MutationObserver((records) => { window.__mutations += records.length; });
    for (const m of document.querySelectorAll('[data-matrix]')) obs.observe(m, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.click('.speeds button:text("1.5×")');
  await page.click('#wt-play');
  await page.waitForFunction(() => Number(document.querySelector('.player').dataset.step) > 4, null, { timeout: 20000 });
  await page.click('#wt-play');
  await expectAttr(page, 'data-playing', 'false');
  assert.ok(Number(await attr(page, 'data-step')) > 4, 'it played');
  assert.equal(await page.evaluate(() => window.__mutations), 0, 'no matrix DOM changed while playing');
  assert.deepEqual(problems, []);
  await context.close();
});

test('editing a number while playing keeps the current step', async () => {
  const { context, page, problems } = await fresh('&step=7');
  const start = Number(await attr(page, 'data-time'));
  await page.click('#wt-play');
  await page.waitForFunction((t) => Number(document.querySelector('.player').dataset.time) > t, start);
  const before = Number(await attr(page, 'data-step'));
  const input = '[data-matrix="x"] [data-row="0"][data-col="0"] input';
  await page.fill(input, '4');
  await page.press(input, 'Enter');
  const after = Number(await attr(page, 'data-step'));
  assert.ok(after >= before && after <= before + 1, `step ${before} → ${after}`);
  await expectAttr(page, 'data-playing', 'true');
  assert.equal(await page.getAttribute('[data-matrix="x"] [data-row="0"][data-col="0"]', 'data-value'), '4');
  assert.deepEqual(problems, []);
  await context.close();
});

test('with reduced motion the steps still advance, without tweening', async () => {
  const { context, page, problems } = await fresh();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.equal(await page.$eval('[data-matrix="x"] td', (el) => getComputedStyle(el).transitionDuration), '0s');
  await page.click('.speeds button:text("1.5×")');
  await page.click('#wt-play');
  await page.waitForFunction(() => Number(document.querySelector('.player').dataset.step) >= 2, null, { timeout: 20000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('screenshots: both conventions and both languages', async () => {
  for (const [lang, conv, step] of [['en', 'col', 10], ['zh', 'row', 10], ['zh', 'col', 6]]) {
    const { context, page, problems } = await openPage(browser, { locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    await page.goto(`${BASE_URL}?lang=${lang}&convention=${conv}&granularity=dot&step=${step}`);
    await ready(page);
    await page.waitForFunction((n) => document.querySelector('.player')?.dataset.step === String(n) && document.fonts.status === 'loaded', step);
    await shot(page, `walkthrough-${conv}-${lang}-step${step}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('changing the granularity stays on the same moment; speed buttons have distinct names', async () => {
  // Dot step 11 is α(2,2) (note 004 has no scaling step).
  const { context, page, problems } = await fresh('&granularity=dot&step=11');
  assert.match(await page.textContent('.player-caption'), /q² \(input 2\) and k² \(input 2\)/);
  await page.selectOption('#wt-granularity', 'matrix');
  assert.match(await page.textContent('.player-caption'), /Every query dotted with every key/);
  const names = await page.$$eval('.speeds button', (bs) => bs.map((b) => b.getAttribute('aria-label')));
  assert.deepEqual(names, ['Speed 0.5×', 'Speed 1×', 'Speed 1.5×']);
  assert.equal(await page.$('[id=""]'), null, 'no empty ids');
  assert.deepEqual(problems, []);
  await context.close();
});
