// The figure before the code (docs/performance.md, "First paint"): the
// default page arrives with its header and the stage's first step as HTML
// (scripts/prerender.mjs), readable without JavaScript, in the reader's
// language and layout from the first frame, and replaced by the app without
// the stage moving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { launch, openPage, BASE_URL, NOTE_004 } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const transpose = (m) => m[0].map((_, c) => m.map((row) => row[c]));

/** The numbers of the visible stage picture, row by row as drawn
 * (each row of cells shares a y). */
const stageNumbers = (page, scope) => page.$$eval(`${scope} svg.stage-svg .cell text`, (ts) => {
  const rows = new Map();
  for (const t of ts) {
    if (t.closest('svg').getBoundingClientRect().width === 0) continue;
    const r = t.getBoundingClientRect();
    const y = Math.round(r.top);
    if (!rows.has(y)) rows.set(y, []);
    rows.get(y).push([r.left, Number(t.textContent)]);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, cells]) => cells.sort((a, b) => a[0] - b[0]).map((c) => c[1]));
});

/** Holds every .wasm request until `release()` is called. */
async function holdWasm(page) {
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route(/\.wasm$/, async (route) => { await gate; await route.continue(); });
  return () => release();
}

/** Records, at every frame from the first, which <main> elements are
 * displayed (a pre-rendered copy's data-pre, or "app"), <html lang>, and the
 * layout shifts the browser reports. */
const RECORDER = () => {
  window.__frames = [];
  window.__shifts = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      if (e.hadRecentInput) continue;
      const what = (e.sources ?? []).map((s) => s.node ? (s.node.nodeName + '.' + (s.node.className?.baseVal ?? s.node.className ?? '') + ' ' + JSON.stringify([s.previousRect.y, s.currentRect.y, s.previousRect.height, s.currentRect.height])) : '?');
      window.__shifts.push({ value: e.value, at: Math.round(e.startTime), what, pre: document.documentElement.hasAttribute('data-pre') });
    }
  })
    .observe({ type: 'layout-shift', buffered: true });
  const frame = () => {
    const shown = [...document.querySelectorAll('main')]
      .filter((m) => m.getClientRects().length > 0 && getComputedStyle(m).visibility !== 'hidden')
      .filter((m) => !(m.closest('#app') && document.documentElement.hasAttribute('data-pre')))
      .map((m) => m.dataset.pre ?? 'app');
    window.__frames.push({ shown, lang: document.documentElement.lang });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
};

test('without JavaScript the default page shows the stage\'s first step with note 004\'s numbers', async () => {
  const { context, page } = await openPage(browser, { javaScriptEnabled: false, locale: 'zh-CN' });
  await page.goto(BASE_URL);
  const shown = page.locator('main[data-pre="zh-row"]');
  await shown.waitFor({ state: 'visible' });
  assert.equal(await page.locator('main[data-pre]:visible').count(), 1, 'one copy shown');
  assert.deepEqual(await stageNumbers(page, 'main[data-pre="zh-row"]'), NOTE_004.x);
  const text = await shown.innerText();
  assert.match(text, /注意力实验室/);
  assert.match(text, /1 \/ 15/);
  await context.close();
});

for (const [w, h] of [[1280, 800], [390, 844]]) {
  test(`${w} px: the pre-rendered stage is replaced by the app without moving (layout shift 0)`, async () => {
    const { context, page, problems } = await openPage(browser, { viewport: { width: w, height: h } });
    await page.addInitScript(RECORDER);
    const release = await holdWasm(page);
    await page.goto(BASE_URL);
    // Before the WebAssembly: the copy is shown, in English (the browser's
    // language), and the app is not.
    const copy = page.locator('main[data-pre="en-row"] [data-pre-stage]');
    await copy.waitFor({ state: 'visible' });
    assert.deepEqual(await stageNumbers(page, 'main[data-pre="en-row"]'), NOTE_004.x);
    // The math font swaps in once it arrives (font-display: swap), moving
    // the caption's formula: that is not the app's swap, so shifts count
    // from when the copy's fonts are in.
    await page.evaluate(async () => {
      await document.fonts.ready;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      window.__shifts = [];
    });
    const before = await copy.boundingBox();
    const cellsBefore = await page.$$eval('main[data-pre="en-row"] svg.stage-svg .cell rect:first-child', (rs) => rs.filter((r) => r.getBoundingClientRect().width > 0).map((r) => { const b = r.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }));
    release();
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-pre')
      && document.querySelector('#app [data-figure="stage"] svg [data-value]'));
    assert.equal(await page.locator('main[data-pre]').count(), 0, 'the copies are gone');
    const live = page.locator('#app [data-figure="stage"]');
    const after = await live.boundingBox();
    for (const k of ['x', 'y', 'width', 'height']) {
      assert.ok(Math.abs(after[k] - before[k]) < 0.5, `the stage's ${k}: ${before[k]} pre-rendered, ${after[k]} live`);
    }
    const cellsAfter = await page.$$eval('#app svg.stage-svg .cell rect:first-child', (rs) => rs.map((r) => { const b = r.getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }));
    assert.equal(cellsAfter.length, cellsBefore.length);
    cellsAfter.forEach((c, k) => c.forEach((v, j) => assert.ok(Math.abs(v - cellsBefore[k][j]) < 0.5, `cell ${k}: ${cellsBefore[k]} → ${c}`)));
    // Interactive: a step forward moves the live stage.
    await page.click('#wt-fwd');
    await page.waitForFunction(() => document.querySelector('[data-figure="stage"]').dataset.step === '2');
    const shifts = await page.evaluate(() => window.__shifts);
    assert.equal(shifts.reduce((a, s) => a + s.value, 0), 0, `layout shifts: ${JSON.stringify(shifts)}`);
    assert.deepEqual(problems.filter((p) => !p.includes('integrity')), []);
    await context.close();
  });
}

test('?lang=en&convention=col paints English and columns from the first frame, never a flash of the other', async () => {
  // A Chinese browser that remembers Chinese: the address still wins.
  const { context, page, problems } = await openPage(browser, { locale: 'zh-CN' });
  await page.addInitScript(() => { try { if (!sessionStorage.getItem('seeded')) { localStorage.setItem('attention-lab.lang', 'zh'); sessionStorage.setItem('seeded', '1'); } } catch {} });
  await page.addInitScript(RECORDER);
  const release = await holdWasm(page);
  await page.goto(`${BASE_URL}?lang=en&convention=col`);
  await page.locator('main[data-pre="en-col"]').waitFor({ state: 'visible' });
  // Columns: X drawn with one column per position.
  assert.deepEqual(await stageNumbers(page, 'main[data-pre="en-col"]'), transpose(NOTE_004.x));
  release();
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-pre')
    && document.querySelector('#app [data-figure="stage"] svg [data-value]'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.deepEqual(await stageNumbers(page, '#app'), transpose(NOTE_004.x));
  const frames = await page.evaluate(() => window.__frames);
  assert.ok(frames.length > 2, `frames recorded: ${frames.length}`);
  for (const f of frames.filter((f) => f.shown.length > 0)) {
    assert.equal(f.lang, 'en', `a frame in <html lang=${f.lang}>`);
    for (const s of f.shown) assert.ok(s === 'en-col' || s === 'app', `a frame showed ${s}`);
    assert.ok(f.shown.length <= 1, `a frame showed ${f.shown}`);
  }
  assert.ok(frames.some((f) => f.shown[0] === 'en-col') && frames.at(-1).shown[0] === 'app');
  assert.match(await page.locator('#app header').innerText(), /Attention Lab/);
  assert.deepEqual(problems.filter((p) => !p.includes('integrity')), []);
  await context.close();
});

test('a link, a view, or saved work is never shown the default copy', async () => {
  for (const [label, query, seed] of [
    ['a step', '?step=3', null],
    ['a figure', '?embed=1&view=walkthrough', null],
    ['a shared scenario', '#s=abc', null],
    ['saved work', '', '{"format":"attention-lab/1"}'],
  ]) {
    const { context, page } = await openPage(browser);
    if (seed) await page.addInitScript((s) => localStorage.setItem('attention-lab.scenario', s), seed);
    const release = await holdWasm(page);
    await page.goto(BASE_URL + query);
    await page.waitForLoadState('domcontentloaded');
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-pre')), null, label);
    assert.equal(await page.locator('main[data-pre]:visible').count(), 0, label);
    release();
    await context.close();
  }
});

test('the code is fetched after the frame that paints the copy; with no copy, while the page is still being parsed', async () => {
  // The copy: the first frame in which it is displayed, then the code.
  {
    const { context, page, problems } = await openPage(browser, { locale: 'en-US' });
    await page.addInitScript(() => {
      const frame = () => {
        const stage = document.querySelector('main[data-pre="en-row"] [data-pre-stage]');
        if (document.documentElement.dataset.pre === 'en-row' && stage && stage.getClientRects().length > 0) {
          window.__copyFrame = performance.now();
        } else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    await page.goto(BASE_URL);
    await page.waitForSelector('#app [data-figure="stage"] svg [data-value]');
    const t = await page.evaluate(() => ({
      frame: window.__copyFrame,
      code: performance.getEntriesByType('resource').filter((e) => /\/(attention-lab|start)-[^/]*\.(js|wasm)$/.test(e.name))
        .map((e) => [e.name.split('/').pop(), e.startTime]),
    }));
    assert.ok(t.frame > 0, 'the copy was painted');
    assert.equal(t.code.length, 3, JSON.stringify(t.code));
    for (const [name, at] of t.code) assert.ok(at > t.frame, `${name} fetched at ${at} ms, the copy painted at ${t.frame} ms`);
    assert.deepEqual(problems.filter((p) => !p.includes('integrity')), []);
    await context.close();
  }
  // No copy (a link to a step): the preloads start from <head>, before
  // the body exists.
  {
    const { context, page, problems } = await openPage(browser, { locale: 'en-US' });
    await page.addInitScript(() => {
      new MutationObserver((_, o) => {
        if (document.body) { window.__bodyAt = performance.now(); o.disconnect(); }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${BASE_URL}?step=3`);
    await page.waitForSelector('#app [data-figure="stage"] svg [data-value]');
    const t = await page.evaluate(() => ({
      body: window.__bodyAt,
      wasm: performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm')).startTime,
    }));
    assert.ok(t.wasm < t.body, `the wasm fetched at ${t.wasm} ms, the body began at ${t.body} ms`);
    assert.deepEqual(problems.filter((p) => !p.includes('integrity')), []);
    await context.close();
  }
});

/** The `'sha256-…'` source of each inline script of `html`, as a
 * Content-Security-Policy names it. */
const inlineHashes = (html) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]
  .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);

test('the page waits for no request before its first paint: the stylesheet and the chooser are inline, allowed by the documented policy', async () => {
  const res = await fetch(BASE_URL);
  const html = await res.text();
  assert.ok(!/<link[^>]*rel=["']?stylesheet/.test(html), 'no stylesheet link');
  assert.ok([...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].some((m) => m[1].includes('.stage-svg')), 'the stylesheet inline');
  const hashes = inlineHashes(html);
  assert.equal(hashes.length, 1, 'one inline script: the chooser');
  const served = res.headers.get('content-security-policy');
  const documented = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  for (const h of hashes) {
    assert.match(served, new RegExp(`script-src [^;]*${h.replace(/[+/=]/g, (c) => `\\${c}`)}`), 'scripts/serve-dist.py');
    assert.ok(documented.includes(h), `docs/embedding.md lists ${h}`);
  }
  // The default page under that policy: the copy is shown, nothing refused.
  const { context, page, problems } = await openPage(browser, { locale: 'en-US' });
  const release = await holdWasm(page);
  await page.goto(`${BASE_URL}?lang=en`);
  await page.locator('main[data-pre="en-row"]').waitFor({ state: 'visible' });
  release();
  await page.waitForSelector('#app [data-figure="stage"] svg [data-value]');
  assert.deepEqual(problems.filter((p) => !p.includes('integrity')), []);
  await context.close();
});

test('a host whose policy lacks the chooser\'s hash still gets the whole app, without the copy', async () => {
  const { context, page, problems } = await openPage(browser, { locale: 'en-US' });
  await page.route((url) => new URL(url).pathname === new URL(BASE_URL).pathname, async (route) => {
    const res = await route.fetch();
    const headers = { ...res.headers() };
    headers['content-security-policy'] = headers['content-security-policy'].replace(/ 'sha256-[^']+'/g, '');
    await route.fulfill({ response: res, headers });
  });
  const release = await holdWasm(page);
  await page.goto(`${BASE_URL}?lang=en`);
  await page.waitForLoadState('domcontentloaded');
  // The chooser was refused: no copy is chosen, none is shown.
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-pre')), null);
  assert.equal(await page.locator('main[data-pre]:visible').count(), 0);
  assert.ok(problems.some((p) => /inline script/i.test(p)), problems.join('\n'));
  release();
  await page.waitForSelector('#app [data-figure="stage"] svg [data-value]');
  assert.equal(await page.locator('main[data-pre]').count(), 0, 'the copies are gone');
  assert.equal(await page.textContent('#app h1'), 'Attention Lab');
  await context.close();
});
