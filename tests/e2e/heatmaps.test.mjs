// Heatmaps: one canvas per head, what hovering and the keys
// show, masked cells in the pixels, exports, focus, the difference of two
// heads, the big-W_Q view, and screenshots with 1, 2 and 8 heads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openPage, ready, shot, shareFragment, seededScenario, TWO_HEADS, BASE_URL } from './helpers.mjs';
import { reference } from './reference.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function open(scenario, query = '', opts) {
  const o = await openPage(browser, opts);
  await o.page.goto(BASE_URL + '?lang=en' + query + shareFragment(scenario));
  await ready(o.page);
  await o.page.waitForSelector('[data-heatmap][data-draw-ms]');
  return o;
}

/** Page coordinates of the centre of display cell (r, c) of a heatmap canvas. */
async function cellPoint(page, selector, r, c) {
  const el = await page.$(selector);
  await el.scrollIntoViewIfNeeded();
  const box = await el.boundingBox();
  const d = await el.evaluate((e) => ({ ...e.dataset }));
  return {
    x: box.x + Number(d.left) + (c + 0.5) * Number(d.cell),
    y: box.y + Number(d.top) + (r + 0.5) * Number(d.cell),
  };
}

/** Hovers display cell (r, c) and reads the tooltip once it names that
 * cell (query r, key c; swapped when `transposed`). */
async function hover(page, selector, r, c, transposed = false) {
  const p = await cellPoint(page, selector, r, c);
  await page.mouse.move(p.x, p.y);
  const [q, k] = transposed ? [c, r] : [r, c];
  await page.waitForSelector(`.heat-tip[data-query="${q}"][data-key="${k}"]`);
  return page.$eval('.heat-tip', (t) => {
    // "label: number" lines, by label.
    const lines = {};
    for (const div of t.querySelectorAll(':scope > div')) {
      const m = div.textContent.match(/^(.+): (\S+)$/);
      if (m) lines[m[1]] = m[2];
    }
    return { ...t.dataset, text: t.textContent, lines };
  });
}

/** Whether a 4-decimal display equals an exact value. */
const shows = (text, exact) => Math.abs(Number(text) - exact) <= 0.5e-4 + 1e-12;

for (const h of [1, 2, 8]) {
  test(`${h} head(s): ${h} heatmap(s), one per head`, async () => {
    const s = seededScenario(6, 8, h, 2, 10 + h);
    const { context, page, problems } = await open(s);
    const heads = await page.$$eval('canvas[data-heatmap]', (cs) => cs.map((c) => c.dataset.heatmap));
    assert.deepEqual(heads, Array.from({ length: h }, (_, i) => String(i + 1)));
    // Every canvas is drawn: its backing store matches its layout.
    const sized = await page.$$eval('canvas[data-heatmap]', (cs) => cs.every((c) => c.width > 0 && c.height > 0));
    assert.ok(sized);
    assert.equal(await page.$$eval('[data-heatmap-diff]', (x) => x.length), h >= 2 ? 1 : 0, 'a difference map from two heads on');
    await shot(page, `heatmaps-${h}-heads`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('hovering a cell shows the engine\'s weight, score and scaled score', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  const ref = reference(TWO_HEADS);
  for (const [head, q, k] of [[1, 3, 2], [2, 2, 0], [2, 3, 1]]) {
    const tip = await hover(page, `[data-heatmap="${head}"]`, q, k);
    assert.equal(Number(tip.query), q);
    assert.equal(Number(tip.key), k);
    // Exactly the engine's number, as the weights matrix states it ...
    const cell = await page.getAttribute(`[data-matrix="weights"][data-head="${head}"] [data-row="${q}"][data-col="${k}"]`, 'data-value');
    assert.equal(tip.value, cell);
    // ... and the independent reference's within rounding.
    const w = ref.heads[head - 1].weights[q][k];
    assert.ok(Math.abs(Number(tip.value) - w) < 1e-12, `weight ${tip.value} vs ${w}`);
    assert.match(tip.text, new RegExp(`query ${TWO_HEADS.tokens[q]} → key ${TWO_HEADS.tokens[k]}`));
    // Each line against the reference: score, score ÷ √d_k, weight.
    const r = ref.heads[head - 1];
    assert.ok(shows(tip.lines.score, r.scores[q][k]), `score ${tip.lines.score} vs ${r.scores[q][k]}`);
    assert.ok(shows(tip.lines['scaled score'], r.scaled[q][k]), `scaled ${tip.lines['scaled score']} vs ${r.scaled[q][k]}`);
    assert.ok(shows(tip.lines.weight, r.weights[q][k]), `weight ${tip.lines.weight} vs ${r.weights[q][k]}`);
  }
  // A masked cell says so; its scores exist, its weight is exactly 0.
  const masked = await hover(page, '[data-heatmap="1"]', 0, 3);
  assert.match(masked.text, /masked/);
  assert.ok(shows(masked.lines.score, ref.heads[0].scores[0][3]));
  assert.equal(masked.lines.weight, '0');
  await page.mouse.move(0, 0);
  await page.waitForSelector('.heat-tip', { state: 'detached' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the column layout transposes the picture, not the numbers', async () => {
  const { context, page, problems } = await open(TWO_HEADS, '&convention=col');
  // Display row 1, column 3 is key 1 seen from query 3.
  const tip = await hover(page, '[data-heatmap="1"]', 1, 3, true);
  assert.equal(Number(tip.query), 3);
  assert.equal(Number(tip.key), 1);
  assert.match(await page.textContent('.heads-panel .axes'), /Rows are keys/);
  // The table alternative reads the same way: keys down, queries across.
  await page.click('.heat-fig .heat-tools button[aria-expanded="false"]');
  const rows = await page.$$eval('.heat-fig .heat-table tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(rows[0][0], 'key \\ query');
  // Key 0 ("The") is seen by every query; query 0 sees only key 0.
  assert.deepEqual(rows[1].slice(0, 2), ['The', '1']);
  assert.deepEqual(rows[2].slice(0, 2), ['cat', 'masked']);
  // The walkthrough's query frame is a column, moved across by the query.
  const frame = await page.$eval('.heat-canvas[data-heat-head="1"] .heat-q', (q) => {
    q.style.setProperty('--q', '2');
    q.style.display = 'block';
    const cv = q.parentElement.querySelector('canvas');
    return [q.offsetWidth, q.offsetHeight, Math.round((q.offsetLeft - Number(cv.dataset.left)) / Number(cv.dataset.cell))];
  });
  assert.ok(frame[1] > 3 * frame[0], `a column frame: ${frame}`);
  assert.equal(frame[2], 2, 'at query 2');
  // The big W^q is stacked: its first displayed row is column 0 of W_Q.
  const first = await page.$$eval('[data-matrix="w_q_all"] tr:nth-child(1) td', (tds) => tds.map((td) => `${td.dataset.row},${td.dataset.col}`));
  assert.deepEqual(first, ['0,0', '1,0', '2,0', '3,0']);
  // W^q as the notes print it: a real superscript, never a caret.
  const intro = await page.innerHTML('.split-intro');
  assert.match(intro, /stack the heads' W<sup>q<\/sup>/);
  assert.ok(!(await page.textContent('.split-intro')).includes('^'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a tap on a touch screen shows the tapped cell', async () => {
  const { context, page, problems } = await openPage(browser, { hasTouch: true, deviceScaleFactor: 2 });
  await page.goto(BASE_URL + '?lang=en' + shareFragment(TWO_HEADS));
  await page.waitForSelector('[data-heatmap][data-draw-ms]');
  const p = await cellPoint(page, '[data-heatmap="1"]', 3, 2);
  await page.touchscreen.tap(p.x, p.y);
  await page.waitForSelector('.heat-tip[data-query="3"][data-key="2"]', { timeout: 3000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('arrow keys move across cells and Enter enlarges a head', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  await page.focus('[data-heatmap="1"]');
  await page.waitForSelector('.heat-tip[data-query="0"][data-key="0"]');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('.heat-tip[data-query="2"][data-key="1"]');
  await page.keyboard.press('End');
  await page.waitForSelector('.heat-tip[data-query="2"][data-key="3"]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.heat-tip', { state: 'detached' });
  // Head 1 starts focused (large); Enter on head 2 enlarges it instead.
  const cell = (r) => page.$eval(`[data-heatmap="${r}"]`, (c) => Number(c.dataset.cell));
  assert.ok((await cell(1)) > (await cell(2)));
  await page.focus('[data-heatmap="2"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('.heat-fig')[1].classList.contains('focused'));
  assert.ok((await cell(2)) > (await cell(1)));
  assert.equal(await page.getAttribute('.heat-fig:nth-child(2) .head-name', 'aria-pressed'), 'true');
  // A click does the same.
  await page.click('[data-heatmap="1"]');
  await page.waitForFunction(() => document.querySelectorAll('.heat-fig')[0].classList.contains('focused'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('masked cells are drawn hatched grey, never in the weight colours', async () => {
  for (const dpr of [1, 2]) {
    const { context, page, problems } = await open(TWO_HEADS, '', { deviceScaleFactor: dpr });
    // Every pixel of one cell, read back from the canvas.
    const pixels = (r, c, corner = false) => page.$eval('[data-heatmap="1"]', (cv, [r, c, corner]) => {
      const d = cv.dataset;
      const ratio = cv.width / cv.getBoundingClientRect().width;
      const size = Number(d.cell) * ratio;
      const x0 = Math.round(Number(d.left) * ratio + c * size);
      const y0 = Math.round(Number(d.top) * ratio + r * size);
      // The whole cell, or (for a cell with its number written in it) a
      // small patch in its corner.
      const inner = corner ? 3 : Math.floor(size * 0.8);
      const data = cv.getContext('2d').getImageData(x0 + 1, y0 + 1, inner, inner).data;
      const seen = new Set();
      for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      return [...seen];
    }, [r, c, corner]);
    const grey = (rgb) => { const [r, g, b] = rgb.split(',').map(Number); return r === g && g === b; };
    // Query 0 may see only key 0 (causal): keys 1..3 are masked.
    for (const k of [1, 2, 3]) {
      const seen = await pixels(0, k);
      assert.ok(seen.every(grey), `dpr ${dpr}: masked cell (0, ${k}) is grey: ${seen}`);
      assert.ok(seen.length >= 2, `dpr ${dpr}: masked cell (0, ${k}) is hatched (two greys): ${seen}`);
    }
    // An allowed cell with weight ≈ 0 is a colour of the scale, not grey.
    const low = await pixels(3, 0, true);
    assert.deepEqual(low, ['68,1,84'], `dpr ${dpr}: an allowed cell of weight ≈ 0 is viridis' dark end`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('PNG, SVG and CSV exports download, and the CSV is the engine\'s weights', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  const fig = '.heat-fig:nth-child(2)';
  const grab = async (label) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`${fig} .heat-tools button:text-is("${label}")`)]);
    return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
  };
  const png = await grab('PNG');
  assert.equal(png.name, 'attention-head-2.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  const svg = await grab('SVG');
  assert.equal(svg.name, 'attention-head-2.svg');
  const text = svg.bytes.toString('utf8');
  assert.match(text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((text.match(/url\(#masked\)/g) ?? []).length, 6, 'six masked cells under the causal mask');
  assert.match(text, />sat</);
  const csv = await grab('CSV');
  assert.equal(csv.name, 'attention-head-2.csv');
  const lines = csv.bytes.toString('utf8').trim().split('\n').map((l) => l.split(','));
  assert.deepEqual(lines[0], ['query\\key', 'The', 'cat', 'sat', 'down']);
  const engine = await page.$$eval('[data-matrix="weights"][data-head="2"] [data-row]', (cells) =>
    cells.map((c) => [Number(c.dataset.row), Number(c.dataset.col), c.dataset.value]));
  for (const [r, c, v] of engine) assert.equal(lines[r + 1][c + 1], v, `csv (${r}, ${c})`);
  const ref = reference(TWO_HEADS).heads[1].weights;
  ref.forEach((row, r) => row.forEach((w, c) => assert.ok(Math.abs(Number(lines[r + 1][c + 1]) - w) < 1e-12)));
  assert.deepEqual(problems, []);
  await context.close();
});

test('every heatmap has a table alternative', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  assert.equal(await page.getAttribute('[data-heatmap="2"]', 'role'), 'application');
  assert.equal(await page.getAttribute('[data-heatmap="2"]', 'aria-roledescription'), 'heatmap');
  assert.match(await page.getAttribute('[data-heatmap="2"]', 'aria-label'), /Head 2/);
  await page.click('.heat-fig:nth-child(2) .heat-tools button[aria-expanded="false"]');
  const rows = await page.$$eval('.heat-fig:nth-child(2) .heat-table tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.equal(rows.length, 5);
  assert.deepEqual(rows[0], ['query \\ key', 'The', 'cat', 'sat', 'down']);
  assert.deepEqual(rows[1].slice(0, 3), ['The', '1', 'masked']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the difference map is head A minus head B', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  const ref = reference(TWO_HEADS).heads.map((h) => h.weights);
  let tip = await hover(page, '[data-heatmap-diff]', 3, 2);
  assert.equal(await page.getAttribute('[data-heatmap-diff]', 'data-heatmap-diff'), '1-2');
  assert.ok(Math.abs(Number(tip.value) - (ref[0][3][2] - ref[1][3][2])) < 1e-12);
  // Swap: choose head 2 as A and head 1 as B.
  await page.selectOption('.diff-pick label:first-child select', '2');
  await page.selectOption('.diff-pick label:last-child select', '1');
  await page.waitForSelector('[data-heatmap-diff="2-1"]');
  tip = await hover(page, '[data-heatmap-diff]', 3, 0);
  assert.ok(Math.abs(Number(tip.value) - (ref[1][3][0] - ref[0][3][0])) < 1e-12);
  assert.ok(Number(tip.value) > 0.9, 'head 2 looks at the first token, head 1 does not');
  assert.deepEqual(problems, []);
  await context.close();
});

test('one big W_Q cut into blocks is every head\'s W_Q, and X·W_Q every head\'s Q', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  const read = (sel) => page.$$eval(`${sel} [data-row]`, (cells) => {
    const m = [];
    for (const c of cells) (m[Number(c.dataset.row)] ??= [])[Number(c.dataset.col)] = c.dataset.value;
    return m;
  });
  const big = await read('[data-matrix="w_q_all"]');
  const bigQ = await read('[data-matrix="q_all"]');
  for (const head of [1, 2]) {
    const w = await read(`.workbench [data-matrix="w_q"][data-head="${head}"]`);
    const q = await read(`.workbench [data-matrix="q"][data-head="${head}"]`);
    w.forEach((row, r) => row.forEach((v, c) => assert.equal(big[r][(head - 1) * 2 + c], v)));
    q.forEach((row, r) => row.forEach((v, c) => assert.equal(bigQ[r][(head - 1) * 2 + c], v)));
  }
  assert.equal(await page.getAttribute('.split-check', 'data-identical'), 'true');
  // An edit of head 2's W_Q shows up in the big one at once.
  const input = `.workbench [data-matrix="w_q"][data-head="2"] [data-row="1"][data-col="0"] input`;
  await page.fill(input, '-2.5');
  await page.press(input, 'Enter');
  await page.waitForSelector('[data-matrix="w_q_all"] [data-row="1"][data-col="2"][data-value="-2.5"]');
  assert.deepEqual(problems, []);
  await context.close();
});

test('view=heatmaps embeds the heatmaps alone, in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    await page.goto(`${BASE_URL}?embed=1&view=heatmaps&lang=${lang}${shareFragment(TWO_HEADS)}`);
    await page.waitForSelector('[data-heatmap][data-draw-ms]');
    assert.equal(await page.$$eval('canvas[data-heatmap]', (c) => c.length), 2);
    assert.equal(await page.$('.workbench'), null, 'no workbench');
    assert.equal(await page.$('.player'), null, 'no walkthrough');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
    await shot(page, `heatmaps-embed-${lang}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('64 tokens and 8 heads: every heatmap drawn, narrow screens do not overflow', async () => {
  const s = seededScenario(64, 16, 8, 2, 5, { mask: 'causal' });
  const { context, page, problems } = await open(s, '', { viewport: { width: 375, height: 800 } });
  assert.equal(await page.$$eval('canvas[data-heatmap][data-draw-ms]', (c) => c.length), 8);
  const overflow = await page.$eval('.heads-panel', (p) => p.scrollWidth - p.clientWidth);
  assert.ok(overflow <= 0, `heads panel fits 375 px (${overflow} px over)`);
  await shot(page, 'heatmaps-64-tokens-375px');
  assert.deepEqual(problems, []);
  await context.close();
});

for (const granularity of ['row', 'matrix']) test(`the walkthrough outlines the query it computes on that head's heatmap (${granularity})`, async () => {
  const { context, page, problems } = await open(TWO_HEADS, `&granularity=${granularity}`);
  const steps = Number(await page.getAttribute('.player', 'data-steps'));
  // Which query frame shows, by its place on the canvas (row q).
  const outlined = () => page.$$eval('.heat-canvas .heat-q', (qs) => qs
    .filter((q) => getComputedStyle(q).display !== 'none')
    .map((q) => {
      const cv = q.parentElement.querySelector('canvas');
      const row = Math.round((q.offsetTop - Number(cv.dataset.top)) / Number(cv.dataset.cell));
      return `${q.closest('.heat-canvas').dataset.heatHead}:${row}`;
    }));
  const seen = new Set();
  await page.focus('#wt-restart');
  for (let k = 1; k <= steps; k++) {
    if (k > 1) {
      await page.click('#wt-fwd');
      await page.waitForFunction((k) => document.querySelector('.player').dataset.step === String(k), k);
    }
    const now = await outlined();
    assert.ok(now.length <= 1, `step ${k}: one query at a time (${now})`);
    now.forEach((x) => seen.add(x));
  }
  // Query by query, every query of both heads is outlined at some step;
  // matrix by matrix, none is singled out.
  if (granularity === 'row') {
    for (const head of [1, 2]) for (let q = 0; q < 4; q++) assert.ok(seen.has(`${head}:${q}`), `head ${head} query ${q}`);
  } else {
    assert.deepEqual([...seen], []);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('at a fractional pixel ratio the tooltip names the cell under the pointer, even at its edges', async () => {
  // Just inside a cell's left edge, where the edge falls between two CSS
  // pixels: a position rounded to whole CSS pixels would land in the
  // neighbour to the left.
  let sensitive = 0;
  for (const dpr of [1.25, 1.75]) {
    const { context, page, problems } = await open(TWO_HEADS, '', { deviceScaleFactor: dpr });
    const el = await page.$('[data-heatmap="1"]');
    await el.scrollIntoViewIfNeeded();
    const box = await el.boundingBox();
    const d = await el.evaluate((e) => ({ ...e.dataset }));
    const [left, top, cell] = [Number(d.left), Number(d.top), Number(d.cell)];
    for (const r of [0, 2]) {
      for (const c of [1, 2, 3]) {
        const start = left + c * cell;
        const frac = start - Math.floor(start);
        if (frac < 0.05 || frac > 0.95) continue;
        sensitive++;
        const x = start + (Math.ceil(start) - start) / 2;
        await page.mouse.move(box.x + x, box.y + top + (r + 0.5) * cell);
        const tip = await page.waitForSelector('.heat-tip').then((t) => t.evaluate((e) => [Number(e.dataset.query), Number(e.dataset.key)]));
        assert.deepEqual(tip, [r, c], `dpr ${dpr}: ${x.toFixed(2)} px from the canvas edge is in cell (${r}, ${c})`);
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
  assert.ok(sensitive >= 2, `probed ${sensitive} edges between CSS pixels`);
});

test('labels fit their margins as the browser measures them, Latin, capitals and Chinese', async () => {
  const s = { ...TWO_HEADS, tokens: ['WWWWWWWW', 'MMMMMMMM', '我喜欢你我喜欢你', 'Mmmmwwww'] };
  for (const lang of ['en', 'zh']) {
    const { context, page, problems } = await open(s, `&lang=${lang}`);
    const fits = await page.$$eval('canvas[data-heatmap]', (cs, tokens) => cs.map((cv) => {
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = '11px system-ui, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif';
      const widest = Math.max(...tokens.map((t) => ctx.measureText(t).width));
      return { left: Number(cv.dataset.left), top: Number(cv.dataset.top), widest };
    }), s.tokens);
    for (const f of fits) {
      // Row labels end 4 px left of the cells; turned column labels 4 px above.
      assert.ok(f.widest <= f.left - 4, `row labels ${f.widest} px in ${f.left - 4} px`);
      assert.ok(f.widest <= f.top - 4, `column labels ${f.widest} px in ${f.top - 4} px`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the canvas has one backing pixel per device pixel, and follows a change of ratio', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  const ratio = () => page.$eval('[data-heatmap="1"]', (c) => c.width / c.getBoundingClientRect().width);
  assert.ok(Math.abs((await ratio()) - 1) < 0.01);
  // Zooming changes devicePixelRatio and fires resize: the maps redraw at
  // the new resolution. (Headless Chromium's emulated ratio change fires
  // no event of its own, so the test sends the resize a zoom would.)
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 2, mobile: false });
  await page.evaluate(() => dispatchEvent(new Event('resize')));
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-heatmap="1"]');
    return Math.abs(c.width / c.getBoundingClientRect().width - 2) < 0.01;
  }, null, { timeout: 5000 });
  assert.deepEqual(problems, []);
  await context.close();
});

// An edit's own frame draws the maps only when they are on screen; off
// screen they follow after that frame (docs/performance.md, "An edit at
// n = 64 in its frame"). Either way they end up showing the edit.
test('the maps on screen follow an edit in its frame; off screen, right after it', async () => {
  const { context, page, problems } = await open(TWO_HEADS);
  const map = '[data-heatmap="1"]';
  // Edit X inside a frame callback; report whether the map was redrawn
  // (a new data-draw-ms attribute) when the next frame begins.
  const editAndLook = (v) => page.evaluate(([map, v]) => new Promise((done) => {
    const canvas = document.querySelector(map);
    let drawn = false;
    const seen = new MutationObserver(() => { drawn = true; });
    seen.observe(canvas, { attributes: true, attributeFilter: ['data-draw-ms'] });
    requestAnimationFrame(() => {
      const input = document.querySelector('[data-matrix="x"] [data-row="3"][data-col="0"] input');
      input.value = v;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      requestAnimationFrame(() => { seen.disconnect(); done(drawn); });
    });
  }), [map, v]);
  const summaryOf = (p) => p.$eval('.heat-fig .heat-summary', (s) => s.textContent);
  const inView = (want) => page.waitForFunction(([m, want]) => new Promise((r) => new IntersectionObserver((es, o) => {
    o.disconnect();
    r(es[0].isIntersecting === want);
  }).observe(document.querySelector(m))), [map, want]);
  // On screen: drawn in the edit's frame.
  await page.$eval(map, (c) => c.scrollIntoView({ block: 'center' }));
  await inView(true);
  const pixels = (p) => p.$eval(map, (c) => c.toDataURL());
  const before = await pixels(page);
  assert.equal(await editAndLook('2.5'), true, 'the map on screen was drawn in the edit\'s frame');
  const onScreen = await pixels(page);
  assert.notEqual(onScreen, before, 'the map follows the edit');
  // Off screen (the workbench's X in view): not in the edit's frame, but
  // right after it, without any scrolling.
  await page.$eval('[data-matrix="x"]', (x) => x.scrollIntoView({ block: 'start' }));
  await inView(false);
  assert.equal(await editAndLook('-1.5'), false, 'the map off screen waited for the frame to be drawn');
  await page.waitForFunction(([m, d]) => document.querySelector(m).toDataURL() !== d, [map, onScreen]);
  // What it then shows is what a fresh page with the edited scenario shows.
  const edited = structuredClone(TWO_HEADS);
  edited.x[3][0] = -1.5;
  const other = await open(edited);
  assert.equal(await summaryOf(page), await summaryOf(other.page));
  assert.equal(await pixels(page), await pixels(other.page), 'the same picture');
  await other.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});
