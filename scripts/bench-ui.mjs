// Benchmark (not a test): edit-to-paint in Chromium. Commits an edit of an X
// cell and waits for the next frame after the DOM update, at two sizes.
// Usage: BASE_URL=http://127.0.0.1:PORT/ node scripts/bench-ui.mjs
import { launch, openPage, ready, shareFragment, seededScenario } from '../tests/e2e/helpers.mjs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';

const scenario = (n, d, h, dk, seed) => seededScenario(n, d, h, dk, seed, { withWo: true });

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** [work, to-next-frame] pairs in ms: medians, the worst work, and how many
 * missed their frame (over 1.5 frames). */
function summarize(results) {
  const work = results.map((x) => x[0]);
  const frames = results.map((x) => x[1]);
  const missed = frames.filter((f) => f > 16.7 * 1.5).length;
  return {
    work: median(work).toFixed(1),
    maxWork: Math.max(...work).toFixed(1),
    frame: median(frames).toFixed(1),
    missed: `${missed}/${frames.length}`,
  };
}

/** `s` is a scenario to open by link, or a function that sets one up with
 * the page's own controls (a 512-wide one is too big for a link). */
async function measure(browser, label, s, samples = 25, setup = null) {
  if (!row(label)) return;
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en' + (typeof s === 'function' ? '' : shareFragment(s)));
  await ready(page);
  if (typeof s === 'function') await s(page);
  if (setup) await setup(page);
  // Each edit is committed at the start of a frame (inside a rAF callback).
  // "work" runs from the edit to the last DOM change it causes (Yew yields
  // to the browser after 16 ms of work, so an edit's work can span several
  // tasks: it is over when a whole timer task passes with no change), plus
  // the layout it needs; "to next frame" is until the first frame after
  // that, about 16.7 ms exactly when the edit was painted in the frame it
  // was made in. An edit whose work let a frame be drawn before it was done
  // (a frame showing half of it) is counted as missing its frame.
  const results = await page.evaluate(async (count) => {
    const out = [];
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const timer = () => new Promise((r) => setTimeout(r, 0));
    for (let k = 0; k < count; k++) {
      await nextFrame();
      await new Promise((resolve) => requestAnimationFrame(async () => {
        const input = document.querySelector(`[data-matrix="x"] [data-row="${k % 4}"][data-col="0"] input`);
        // What the edit changes on the page: the edited cell, the output,
        // the stage and the heatmaps on screen (the labs below follow a task
        // later on purpose, out of sight). Observing these few nodes, not the whole
        // page, keeps the observer's own cost out of the figure.
        let last = 0;
        const mo = new MutationObserver(() => { last = performance.now(); });
        const watch = (el, subtree) => el && mo.observe(el, { subtree, childList: true, attributes: true, characterData: true });
        watch(input.closest('td'), false);
        watch(document.querySelector('[data-matrix="output"] td'), true);
        watch(document.querySelector('[data-figure="stage"] svg'), true);
        // The maps on screen: one off screen is redrawn after the frame
        // (or when it comes into view), not in the edit's frame.
        const onScreen = (el) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
        for (const c of document.querySelectorAll('.heads-panel canvas')) if (onScreen(c)) watch(c, false);
        let firstFrame = Infinity;
        requestAnimationFrame((t) => { firstFrame = performance.now(); });
        const t0 = performance.now();
        input.value = String((k % 7) - 3 + 0.5);
        input.dispatchEvent(new Event('change', { bubbles: true }));
        for (let seen = -1; ;) {
          await timer();
          if (last > 0 && last === seen) break;
          seen = last;
        }
        mo.disconnect();
        const l0 = performance.now();
        void document.body.offsetHeight;
        const work = last - t0 + (performance.now() - l0);
        const spilled = firstFrame < last;
        const frame = (await nextFrame()) - t0;
        out.push([work, spilled ? Math.max(frame, 40) : frame]);
        resolve();
      }));
    }
    return out;
  }, samples);
  const r = summarize(results);
  console.log(`edit ${label}: work (compute + render + layout) median ${r.work} ms, max ${r.maxWork}; edit to next frame median ${r.frame} ms; ${r.missed} edits missed their frame`);
  if (problems.length) console.log('problems:', problems);
  await context.close();
}

async function playback(browser, label, s) {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en&granularity=dot' + (s ? shareFragment(s) : ''));
  await ready(page);
  await page.click('.speeds button:text("1.5×")');
  // Frame gaps over 6 s, first idle (the browser's own jitter), then playing.
  const measure = (play) => page.evaluate(async (play) => {
    const gaps = [];
    let last = 0;
    let running = true;
    const loop = (t) => { if (last) gaps.push(t - last); last = t; if (running) requestAnimationFrame(loop); };
    if (play) document.querySelector('#wt-play').click();
    requestAnimationFrame(loop);
    await new Promise((r) => setTimeout(r, 6000));
    running = false;
    return { gaps, step: Number(document.querySelector('.player').dataset.step) };
  }, play);
  const report = (what, r) => {
    const share = (ms) => (100 * r.gaps.filter((g) => g > ms).length / r.gaps.length).toFixed(1);
    console.log(`${what}: ${r.gaps.length} frames in 6 s; over 16.7 ms: ${share(16.7)}%, over 20 ms (a frame late): ${share(20)}%, over 33 ms: ${share(33.4)}%`);
  };
  report(`idle, ${label}`, await measure(false));
  // The main thread's work while playing (script, style, layout: Chromium's
  // own counters), per frame drawn.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await metrics();
  const played = await measure(true);
  const after = await metrics();
  report(`playback 1.5×, ${label} (reached step ${played.step})`, played);
  const per = (k) => (1000 * (after[k] - before[k]) / played.gaps.length).toFixed(2);
  console.log(`playback 1.5×, ${label}: main-thread work per frame: script ${per('ScriptDuration')} ms, style ${per('RecalcStyleDuration')} ms, layout ${per('LayoutDuration')} ms, all tasks ${per('TaskDuration')} ms`);
  if (problems.length) console.log('problems:', problems);
  await context.close();
}

// Redrawing every heatmap after an edit (8 heads of 64 × 64 plus the
// difference map): each canvas records how long its own draw took
// (data-draw-ms); the sum is the heatmaps' share of the frame.
async function heatmaps(browser, label, s, samples = 10) {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en' + shareFragment(s));
  await ready(page);
  await page.waitForSelector('[data-heatmap][data-draw-ms]');
  const sums = [];
  let count = 0;
  for (let k = 0; k < samples; k++) {
    await page.$$eval('canvas[data-draw-ms]', (cs) => cs.forEach((c) => c.removeAttribute('data-draw-ms')));
    count = await page.$$eval('canvas', (cs) => cs.length);
    await page.evaluate((k) => {
      const input = document.querySelector(`[data-matrix="x"] [data-row="${k % 4}"][data-col="0"] input`);
      input.value = String((k % 7) - 3 + 0.25);
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, k);
    await page.waitForFunction((n) => document.querySelectorAll('canvas[data-draw-ms]').length === n, count);
    sums.push(await page.$$eval('canvas[data-draw-ms]', (cs) => cs.reduce((a, c) => a + Number(c.dataset.drawMs), 0)));
  }
  console.log(`heatmaps ${label}: redrawing all ${count} canvases after an edit takes ${median(sums).toFixed(1)} ms median (max ${Math.max(...sums).toFixed(1)}) of a 16.7 ms frame`);
  if (problems.length) console.log('problems:', problems);
  await context.close();
}

// The heatmaps figure alone (?embed=1&view=heatmaps) with 8 heads of
// 64 × 64: a changed scenario arrives by link (hashchange), and the time is
// taken from there until every canvas has redrawn (compute, the heads
// panel's render, 9 draws), then to the next frame.
async function heatmapsFigure(browser, label, s, samples = 15) {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en&embed=1&view=heatmaps' + shareFragment(s));
  await page.waitForSelector('[data-heatmap][data-draw-ms]');
  const frags = Array.from({ length: samples }, (_, k) => {
    const t = structuredClone(s);
    t.x[k % 4][0] = (k % 7) - 3 + 0.25;
    return shareFragment(t);
  });
  const results = await page.evaluate(async (frags) => {
    const out = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    for (const f of frags) {
      await frame();
      const canvases = [...document.querySelectorAll('canvas')];
      canvases.forEach((c) => c.removeAttribute('data-draw-ms'));
      const drawn = new Promise((resolve) => {
        const mo = new MutationObserver(() => {
          if (canvases.every((c) => c.hasAttribute('data-draw-ms'))) { mo.disconnect(); resolve(performance.now()); }
        });
        canvases.forEach((c) => mo.observe(c, { attributes: true, attributeFilter: ['data-draw-ms'] }));
      });
      const t0 = performance.now();
      location.hash = f;
      const t1 = await drawn;
      const t2 = await frame();
      out.push([t1 - t0, t2 - t0]);
    }
    return out;
  }, frags);
  const r = summarize(results);
  console.log(`heatmaps figure ${label}: new scenario to every canvas redrawn (compute + render + draws) median ${r.work} ms, max ${r.maxWork}; to next frame median ${r.frame} ms; ${r.missed} missed their frame`);
  if (problems.length) console.log('problems:', problems);
  await context.close();
}

// From navigation to the first output matrix painted, and to the first
// frame that paints the stage, fresh context each time; with where the time
// goes: the wasm file fetched, the app's first render in the DOM, painted.
async function load(browser, samples = 9) {
  const rows = { fetched: [], inDom: [], painted: [], stage: [] };
  for (let k = 0; k < samples; k++) {
    const { context, page } = await openPage(browser);
    await page.addInitScript(() => {
      const tell = () => window.__painted && window.__stagePaint && console.log('attention-lab-bench: painted');
      const mo = new MutationObserver(() => {
        if (!window.__inDom && document.querySelector('[data-matrix="output"] [data-value]')) {
          window.__inDom = performance.now();
          // After the frame that shows it (the callback runs once that
          // frame's rendering work is done).
          requestAnimationFrame(() => setTimeout(() => { window.__painted = performance.now(); tell(); }, 0));
        }
        if (!window.__stageIn && document.querySelector('[data-figure="stage"] svg [data-value]')) {
          window.__stageIn = true;
          requestAnimationFrame(() => setTimeout(() => { window.__stagePaint = performance.now(); tell(); }, 0));
        }
      });
      mo.observe(document, { childList: true, subtree: true, attributes: true });
    });
    // Told by a console message, not by polling the page: a poll (or any
    // evaluate before the load is over) injects Playwright's own script
    // into the page, 20–30 ms of main-thread work that would be counted
    // as the page's.
    const told = page.waitForEvent('console', { predicate: (m) => m.text() === 'attention-lab-bench: painted', timeout: 15000 });
    await page.goto(BASE_URL + '?lang=en');
    await told;
    const r = await page.evaluate(() => ({
      fetched: performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'))?.responseEnd,
      inDom: window.__inDom,
      painted: window.__painted,
      stage: window.__stagePaint,
    }));
    for (const key of Object.keys(rows)) rows[key].push(r[key]);
    await context.close();
  }
  const m = (key) => median(rows[key]).toFixed(0);
  console.log(`load: first output painted ${m('painted')} ms median after navigation start (local server, cold cache): wasm fetched at ${m('fetched')} ms, the first render in the DOM at ${m('inDom')} ms (compile, start, compute, render), then style, layout and paint`);
  console.log(`load: the stage painted ${m('stage')} ms median after navigation start`);
}

// The cost lab's timing of the dense layer at n = 16 … 1024 (note 004's
// widths), and the longest main-thread task while it runs (the page must
// stay responsive: no task over 100 ms).
async function costTiming(browser) {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en&embed=1&view=cost');
  await ready(page);
  await page.click('[data-lab="cost"] .predict .skip');
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
  });
  await page.click('[data-lab="cost"] .measure');
  await page.waitForSelector('[data-timing="done"]', { timeout: 120000 });
  const rows = await page.$$eval('[data-timed]', (rs) => rs.map((r) => `n = ${r.dataset.timed}: ${Number(r.querySelector('[data-ms]').dataset.ms).toFixed(3)} ms`));
  const longest = await page.evaluate(() => Math.max(0, ...window.__long));
  console.log(`cost lab, dense layer (note 004's widths) timed in the page: ${rows.join('; ')}; longest task while timing ${longest.toFixed(0)} ms`);
  if (problems.length) console.log('problems:', problems);
  await context.close();
}

// BENCH_ONLY=load,edit (any of load, cost, heatmaps, playback, edit) runs
// only those parts; BENCH_ROWS="d_model=64, 8 heads|4 layers" only the edit
// rows whose label contains one of those texts.
const only = (part) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes(part);
const row = (label) => !process.env.BENCH_ROWS || process.env.BENCH_ROWS.split('|').some((t) => label.includes(t));
const browser = await launch();
if (only('load')) await load(browser);
if (only('cost')) await costTiming(browser);
if (only('heatmaps')) {
  await heatmaps(browser, '8 heads, n=64', scenario(64, 64, 8, 8, 2));
  await heatmapsFigure(browser, '8 heads, n=64', scenario(64, 64, 8, 8, 2));
}
if (only('playback')) {
  await playback(browser, 'n=8, d_model=8, 2 heads', scenario(8, 8, 2, 4, 1));
  await playback(browser, 'note 004', null);
}
if (only('edit')) {
  await measure(browser, 'n=8, d_model=8, 2 heads', scenario(8, 8, 2, 4, 1));
  await measure(browser, 'n=64, d_model=64, 8 heads', scenario(64, 64, 8, 8, 2));
  // Four stacked layers of that size (docs/format.md §1b), each adding its
  // input back: layers 2–4 added with the workbench's own controls, so the
  // model view draws 4 × 8 maps after every edit.
  await measure(browser, 'n=64, d_model=64, 4 layers × 8 heads, residual', scenario(64, 64, 8, 8, 2), 25, async (page) => {
    for (let l = 2; l <= 4; l++) {
      await page.click('[data-control="add-layer"]');
      await page.waitForSelector(`[data-layer-controls="${l}"]`);
    }
    for (let l = 1; l <= 4; l++) {
      await page.click(`#layer-${l}-residual`);
      await page.waitForFunction((l) => document.querySelector(`#layer-${l}-residual`).checked, l);
    }
    await page.waitForFunction(() => document.querySelectorAll('[data-model-view] canvas[data-heatmap]').length === 32);
  });
  // Note 000's 8 heads × 64 = 512 at 64 tokens (~67M multiply-adds per edit).
  await measure(browser, 'n=64, d_model=512, 8 heads of 64, W_O 512×512', async (page) => {
    await page.selectOption('#preset', 'wide-512');
    await page.waitForFunction(() => document.querySelector('.dims').textContent.includes('d_model = 512'));
    await page.fill('#dim-n', '64');
    await page.press('#dim-n', 'Enter');
    await page.waitForFunction(() => document.querySelector('.dims').textContent.startsWith('n = 64,'));
  }, 10);
}
await browser.close();
