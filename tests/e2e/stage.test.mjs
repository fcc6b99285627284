// The stage: the walkthrough as one compact figure in which the
// numbers move. Where it sits on the page, how tall it is embedded (from a
// host page on a second origin, with and without sandbox), what it lights up
// while playing, reduced motion, its numbers, and screenshots of the notes'
// figures F1, F2, F4 and F5.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launch, openPage, ready, readMatrix, shareFragment, TWO_HEADS, BASE_URL, hostServer, hostPage as sharedHostPage } from './helpers.mjs';

let browser;
let host;
before(async () => {
  browser = await launch();
  // Course sites embed from another origin: the host pages are served from
  // 127.0.0.2, the app from BASE_URL (127.0.0.1).
  host = await hostServer();
});
after(async () => {
  await browser?.close();
  host?.close();
});

const stage = '[data-figure="stage"]';

/** A host page on the second origin (see `hostPage` in helpers.mjs). */
const hostPage = (name, frames) => sharedHostPage(host, name, frames);

/** The element's box and the viewport's size. */
async function boxes(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, vw: innerWidth, vh: innerHeight };
  });
}

for (const [w, h] of [[1280, 800], [390, 844]]) {
  for (const lang of ['zh', 'en']) {
    test(`first visit at ${w}×${h} (${lang}): the stage and its Play button are on the first screen`, async () => {
      const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      await page.goto(BASE_URL);
      await ready(page);
      for (const sel of [stage, '#wt-play', `${stage} svg`]) {
        const b = await boxes(page, sel);
        assert.ok(b.top >= 0 && b.bottom <= b.vh && b.left >= 0 && b.right <= b.vw, `${sel}: ${JSON.stringify(b)}`);
      }
      assert.equal(await page.getAttribute('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en');
      // The figure comes before the controls.
      const order = await page.evaluate(() => {
        const s = document.querySelector('[data-figure="stage"]');
        const t = document.querySelector('.toolbar');
        return s.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING;
      });
      assert.ok(order, 'the stage precedes the toolbar');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test('embedded from another origin, the stage posts at most 640 px at 700 px wide and fits 375 px', async () => {
  const frames = [];
  for (const lang of ['zh', 'en']) {
    for (const conv of ['row', 'col']) {
      for (const gran of ['row', 'dot', 'matrix']) {
        frames.push({ src: `${BASE_URL}?embed=1&view=walkthrough&lang=${lang}&convention=${conv}&granularity=${gran}`, width: 700 });
      }
    }
  }
  frames.push({ src: `${BASE_URL}?embed=1&view=walkthrough&lang=zh&step=12`, width: 375 });
  frames.push({ src: `${BASE_URL}?embed=1&view=walkthrough&lang=en&convention=col&step=12`, width: 375 });
  const url = hostPage('sizes', frames);
  // Tall enough that no frame is off screen (Chromium does not render
  // off-screen cross-origin frames, so they would not report a height yet).
  const { context, page, problems } = await openPage(browser, { viewport: { width: 800, height: 9000 }, origin: host.base });
  await page.goto(url);
  await page.waitForFunction((n) => Object.keys(window.heights).length === n, frames.length, { timeout: 60000 });
  for (let i = 0; i < frames.length; i++) {
    const f = await (await page.$(`#f${i}`)).contentFrame();
    await f.waitForSelector(`${stage} svg [data-value]`);
    // Let the figure settle on its final size, then read what it posted.
    const inner = await f.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(document.documentElement.scrollHeight)))));
    await page.waitForFunction(([id, hgt]) => window.heights[id]?.height === hgt, [`f${i}`, inner]);
    if (frames[i].width === 700) assert.ok(inner <= 640, `${frames[i].src}: ${inner}px`);
    const sideways = await f.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(sideways <= 0, `${frames[i].src}: scrolls sideways by ${sideways}px`);
  }
  const heights = await page.evaluate(() => window.heights);
  assert.equal(heights.f0.origin, new URL(BASE_URL).origin);
  assert.deepEqual(problems.filter((p) => !p.includes(new URL(BASE_URL).origin)), []);
  await context.close();
});

test('a sandboxed iframe (allow-scripts only) and a lazy one show the stage too', async () => {
  const src = `${BASE_URL}?embed=1&view=walkthrough&lang=en&lock=1${shareFragment(TWO_HEADS)}`;
  const url = hostPage('sandbox', [
    { src, width: 700, sandbox: 'allow-scripts' },
    { src: src.replace('lang=en', 'lang=zh'), width: 700, lazy: true },
  ]);
  const { context, page, problems } = await openPage(browser, { viewport: { width: 800, height: 1400 }, origin: host.base });
  await page.goto(url);
  await page.waitForFunction(() => Object.keys(window.heights).length === 2, null, { timeout: 30000 });
  const heights = await page.evaluate(() => window.heights);
  // A sandboxed document has an opaque origin: its messages say "null".
  assert.equal(heights.f0.origin, 'null');
  for (const id of ['f0', 'f1']) {
    const f = await (await page.$(`#${id}`)).contentFrame();
    await f.waitForSelector(`${stage} svg [data-value]`);
    await f.click('#wt-fwd');
    await f.waitForSelector(`${stage}[data-step="2"]`);
    assert.ok(heights[id].height > 200 && heights[id].height <= 640, `${id}: ${heights[id].height}`);
    // The stylesheet applied (inline in the page, in a sandboxed frame too).
    assert.equal(await f.$eval(stage, (s) => getComputedStyle(s).borderTopStyle), 'solid');
  }
  assert.deepEqual(problems.filter((p) => !p.includes(new URL(BASE_URL).origin)), []);
  await context.close();
});

/** Plays at `speed` and samples every animation frame until the step
 * reaches `until` (or the end): what is lit must lie inside the stage and
 * the viewport, the workbench must not be highlighted, and frame times are
 * recorded. */
async function playAndSample(page, speed, until) {
  await page.click(`.speeds button:text("${speed}×")`);
  await page.click('#wt-play');
  return page.evaluate(async (target) => {
    const s = document.querySelector('[data-figure="stage"]');
    const bad = [];
    const gaps = [];
    let frames = 0;
    let lit = 0;
    let last = performance.now();
    const steps = new Set();
    await new Promise((done) => {
      const tick = (now) => {
        gaps.push(now - last);
        last = now;
        frames += 1;
        steps.add(s.dataset.step);
        const box = s.getBoundingClientRect();
        for (const el of s.querySelectorAll('[data-lit]')) {
          const r = el.getBoundingClientRect();
          lit += 1;
          const inside = r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
          const visible = r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
          if (!inside || !visible) bad.push(`step ${s.dataset.step} ${el.dataset.id}: ${JSON.stringify(r)}`);
        }
        if (s.querySelector('style')) bad.push(`step ${s.dataset.step}: workbench highlighted while playing`);
        if (Number(s.dataset.step) >= target || s.dataset.playing !== 'true') done();
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    gaps.shift();
    gaps.sort((a, b) => a - b);
    return { bad, frames, lit, steps: steps.size, median: gaps[gaps.length >> 1], p95: gaps[Math.floor(gaps.length * 0.95)] };
  }, until);
}

for (const [w, h, query] of [[1280, 800, '&granularity=dot'], [390, 844, '&convention=col'], [700, 640, '&embed=1&view=walkthrough' + shareFragment(TWO_HEADS)]]) {
  test(`playing at 1.5× (${w}×${h}${query.slice(0, 30)}): everything lit stays inside the stage and the viewport`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h } });
    await page.goto(BASE_URL + '?lang=en' + query);
    await ready(page);
    const r = await playAndSample(page, 1.5, 9);
    assert.deepEqual(r.bad.slice(0, 5), []);
    assert.ok(r.lit > 0 && r.steps >= 3, JSON.stringify(r));
    // Motion means frames in between steps, not one render per step.
    assert.ok(r.frames > 3 * r.steps, JSON.stringify(r));
    console.log(`# frames at 1.5× (${w}×${h}): median ${r.median.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms over ${r.frames} frames`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('with reduced motion the stage jumps between end states (no tweening)', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  await page.goto(BASE_URL + '?lang=en&granularity=dot');
  await ready(page);
  await page.click('.speeds button:text("1.5×")');
  await page.click('#wt-play');
  const faded = await page.evaluate(async () => {
    const s = document.querySelector('[data-figure="stage"]');
    const seen = [];
    await new Promise((done) => {
      const tick = () => {
        for (const g of s.querySelectorAll('svg g[opacity]')) seen.push(`${s.dataset.step} ${g.dataset.id} ${g.getAttribute('opacity')}`);
        if (Number(s.dataset.step) >= 6) done(); else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    return seen;
  });
  assert.deepEqual(faded.slice(0, 5), []);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the stage's numbers are the engine's (note 004, query 1)", async () => {
  const { context, page, problems } = await openPage(browser);
  // Row granularity: 1 X, 2-4 Q K V, 5 scores of q¹, 6 softmax, 7 weighted sum.
  await page.goto(BASE_URL + '?lang=en&step=6');
  await ready(page);
  const stageRow = (id) => page.$$eval(`${stage} [data-id="${id}"] [data-value]`, (ts) => ts.map((t) => Number(t.dataset.value)));
  const weights = await readMatrix(page, '[data-matrix="weights"][data-head="1"]');
  assert.deepEqual(await stageRow('a.0.0'), weights[0]);
  const exps = await stageRow('e.0.0');
  const sum = exps.reduce((a, b) => a + b, 0);
  exps.forEach((e, j) => assert.equal(e / sum, weights[0][j]));
  await page.click('#wt-fwd');
  await page.waitForSelector(`${stage}[data-step="7"] [data-id="b.0.0"]`);
  const out = await readMatrix(page, '[data-matrix="head_output"][data-head="1"]');
  assert.deepEqual(await stageRow('b.0.0'), out[0]);
  assert.match(await page.textContent(`${stage} [data-id="b.0.0"]`), /1\.9366.*6\.6831.*1\.5951/);
  // Paused, the workbench marks the step's matrices too.
  assert.ok(await page.$(`${stage} style`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('screenshots of the notes\' figures: F1, F2, F4, F5 at 1280×800, 700 px embedded and 390 px', async () => {
  mkdirSync('test-results', { recursive: true });
  const two = shareFragment(TWO_HEADS);
  const shots = [
    // F1: column layout, every dot product (q¹·k² mid-way), both languages.
    ['F1-col-dot', '&convention=col&granularity=dot&step=6', 1280, 800, false],
    // F2: two heads: a head's softmax, the concatenation, W_O.
    ['F2-two-heads-concat', '&granularity=matrix&step=18' + two, 700, 640, true],
    ['F2-two-heads-output', '&granularity=matrix&step=19' + two, 700, 640, true],
    // F4: q¹ against every key, then its weighted sum b¹.
    ['F4-q1-scores', '&step=5', 390, 844, false],
    ['F4-q1-weighted-sum', '&step=7', 700, 640, true],
    // F5: note 004's colours (Q, K, V beside X).
    ['F5-values', '&step=4', 1280, 800, false],
  ];
  for (const lang of ['en', 'zh']) {
    for (const [name, query, w, h, embed] of shots) {
      const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      await page.goto(`${BASE_URL}?lang=${lang}${embed ? '&embed=1&view=walkthrough' : ''}${query}`);
      await ready(page);
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `test-results/stage-${name}-${lang}-${w}.png` });
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});

test('the Chinese page: note 004 labelled 输入, refusal reasons in Chinese', async () => {
  const { context, page, problems } = await openPage(browser, { locale: 'zh-CN' });
  await page.goto(BASE_URL + '?lang=zh');
  await ready(page);
  assert.match(await page.textContent(`${stage} [data-id="x.0.label"]`), /a¹ 输入 1/);
  // A link whose W_K has the wrong shape: refused, in Chinese, naming the field.
  const bad = {
    format: 'attention-lab/1',
    x: [[1, 0], [0, 1]],
    heads: [{ w_q: [[1, 0], [0, 1]], w_k: [[1], [0]], w_v: [[1, 0], [0, 1]] }],
  };
  await page.goto(BASE_URL + '?lang=zh' + shareFragment(bad));
  await ready(page);
  const alert = await page.textContent('[role="alert"]');
  assert.match(alert, /heads\[0\]\.w_k：应为 2×2，实际是 2×1/);
  assert.doesNotMatch(alert, /expected|got/);
  assert.deepEqual(problems, []);
  await context.close();
});
