// Embedding in course notes: ?embed=1, ?view=, ?lock=1,
// height messages, the sample notes page, the embed code, and no request
// leaving the origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { launch, openPage, ready, readMatrix, shot, shareFragment, TWO_HEADS, BASE_URL, hostServer } from './helpers.mjs';

let browser;
let host;
before(async () => {
  browser = await launch();
  // Course sites embed from another origin: host pages come from 127.0.0.2.
  host = await hostServer();
});

/** The reader's own work: X[0][0] = 7, saved by the full page. */
async function saveWork(page) {
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  const cell = '[data-matrix="x"] [data-row="0"][data-col="0"] input';
  await page.fill(cell, '7');
  await page.press(cell, 'Enter');
}

/** The full page still opens on that work, in English. */
async function expectSavedWork(page) {
  await page.goto(BASE_URL);
  await ready(page);
  assert.equal(await page.getAttribute('[data-matrix="x"] [data-row="0"][data-col="0"]', 'data-value'), '7');
  assert.equal(await page.textContent('h1'), 'Attention Lab');
}

/** Clicks a copy button and returns what reached the clipboard. */
async function copied(page, button) {
  await page.click(button);
  await page.waitForSelector('.status p');
  return page.evaluate(() => navigator.clipboard.readText());
}
after(async () => {
  await browser?.close();
  host?.close();
});

/** The height of an embedded page's content (its <main>), once it has held
 * still for two frames. */
async function contentHeight(frame) {
  return frame.evaluate(() => new Promise((done) => {
    let last = -1;
    const look = () => {
      const h = Math.ceil(document.querySelector('main').getBoundingClientRect().height);
      if (h === last) done(h); else { last = h; requestAnimationFrame(() => requestAnimationFrame(look)); }
    };
    look();
  }));
}

/** Waits until the host page's iframe `selector` is `height` px tall (its
 * content box, as the height messages set it). */
async function frameHeight(page, selector, height) {
  await page.waitForFunction(([sel, h]) => Math.abs(document.querySelector(sel).clientHeight - h) <= 1, [selector, height], { timeout: 15000 });
}

test('embed=1 shows one figure without page chrome; lock=1 makes it read-only', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en&embed=1&view=walkthrough&lock=1');
  await ready(page);
  assert.equal(await page.$('header.top'), null, 'no page header');
  assert.equal(await page.$eval('h1', (h) => h.className), 'visually-hidden', 'a heading for screen readers only');
  assert.equal(await page.$('.toolbar'), null, 'no toolbar');
  assert.equal(await page.$('.controls'), null, 'no controls');
  assert.ok(await page.$('.player'), 'the walkthrough');
  assert.equal(await page.$$eval('[data-matrix] input', (els) => els.length), 0, 'locked: nothing editable');
  assert.ok(await page.$('.embed-credit a[target="_blank"]'));
  const full = await page.getAttribute('.embed-credit a', 'href');
  assert.ok(!full.includes('embed=') && full.includes('lock=1'), full);
  // view=workbench: the matrices without the player; editable without lock.
  await page.goto(BASE_URL + '?lang=en&embed=1&view=workbench');
  await ready(page);
  assert.equal(await page.$('.player'), null);
  assert.ok(await page.$('[data-matrix="x"] input'));
  // lock=1 without embed: the numbers, no controls to change them.
  await page.goto(BASE_URL + '?lang=en&lock=1');
  await ready(page);
  assert.ok(await page.$('h1'));
  assert.equal(await page.$('.controls'), null);
  assert.equal(await page.$$eval('[data-matrix] input', (els) => els.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Serves dist/ under /course/attention-lab/ on another port (a static
 * host's sub-path), as scripts/serve-dist.py with the app's CSP. */
async function subPathServer() {
  const root = mkdtempSync(join(tmpdir(), 'attention-lab-'));
  mkdirSync(join(root, 'course'));
  symlinkSync(resolve('dist'), join(root, 'course', 'attention-lab'));
  const port = await new Promise((done) => {
    const srv = createServer().listen(0, '127.0.0.1', () => { const p = srv.address().port; srv.close(() => done(p)); });
  });
  const child = spawn('python3', ['scripts/serve-dist.py', String(port), root], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}/course/attention-lab/`;
  for (let i = 0; i < 50; i++) {
    try { if ((await fetch(base + 'notes.html')).ok) break; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, stop: () => { child.kill(); rmSync(root, { recursive: true, force: true }); } };
}

async function checkNotes(base, lang) {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 900, height: 900 }, origin: new URL(base).origin });
  await page.goto(`${base}notes.html?lang=${lang}`);
  const frames = await page.$$('iframe');
  assert.equal(frames.length, 5);
  // Every frame takes its figure's height, once the figure is drawn: every
  // figure shows whole, nothing cut and nothing to scroll inside it. (The
  // figures are on the notes' origin, so the host page can look inside.)
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => {
    const doc = f.contentDocument;
    const main = doc?.querySelector('main');
    const drawn = doc?.querySelector('[data-figure="stage"] svg [data-value], [data-heatmap][data-draw-ms], [data-lab], [data-matrix="output"] [data-value]');
    return main && drawn && Math.abs(f.clientHeight - Math.ceil(main.getBoundingClientRect().height)) <= 1;
  }), null, { timeout: 15000 });
  for (const frame of frames) {
    const f = await frame.contentFrame();
    assert.ok(f.url().startsWith(base), `${f.url()} under ${base}`);
    assert.ok(await f.evaluate(() => document.documentElement.scrollHeight <= innerHeight + 1), 'nothing scrolls inside the frame');
    const inner = await contentHeight(f);
    assert.equal(await f.getAttribute('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en');
    // The walkthrough figures are stages, compact enough to need no scrolling.
    if (await f.$('[data-figure="stage"]')) assert.ok(inner <= 640, `stage ${inner}px tall`);
  }
  // The embedded figures compute the same outputs as the engine (note 004),
  // in the page's language, and the heatmaps figure draws both heads.
  const first = await frames[0].contentFrame();
  await first.$eval('#wt-scrubber', (r) => { r.value = r.max; r.dispatchEvent(new Event('input', { bubbles: true })); });
  await first.waitForSelector('[data-figure="stage"] [data-id="o.0"] [data-value]');
  const b1 = await first.$$eval('[data-id="o.0"] [data-value]', (ts) => ts.map((t) => Number(t.dataset.value)));
  assert.ok(Math.abs(b1[0] - 1.9366) < 1e-4 && Math.abs(b1[1] - 6.6831) < 1e-4, String(b1));
  const label = await first.textContent('[data-id="x.0.label"]').catch(() => null);
  await first.$eval('#wt-scrubber', (r) => { r.value = 1; r.dispatchEvent(new Event('input', { bubbles: true })); });
  await first.waitForSelector('[data-id="x.0.label"]');
  assert.match(await first.textContent('[data-id="x.0.label"]'), lang === 'zh' ? /输入 1/ : /input 1/, String(label));
  // The first figure's caption line: note 004, the note's rounded weights
  // and the exact ones, the engine's numbers.
  const caption = await first.textContent('.embed-caption');
  assert.match(caption, lang === 'zh' ? /笔记 004 的例子/ : /Note 004's worked example/);
  assert.ok(caption.includes('[2, 7, 1.5]') && caption.includes('[1.9366, 6.6831, 1.5951]'), caption);
  // The lab grows once answered; its frame follows, whole.
  const lab = await frames[4].contentFrame();
  await lab.click('[data-lab="scaling"] .predict .skip');
  await lab.waitForSelector('[data-lab="scaling"] svg[data-hist]');
  const grown = await contentHeight(lab);
  assert.ok(grown >= 700, `the answered lab is ${grown}px`);
  await page.waitForFunction((h) => Math.abs(document.querySelectorAll('iframe')[4].clientHeight - h) <= 1, grown);
  // The heatmaps figure is the two heads' heatmaps alone, whole.
  const heat = await frames[2].contentFrame();
  assert.equal(await heat.$$eval('canvas[data-heatmap][data-draw-ms]', (c) => c.length), 2);
  assert.equal(await heat.$('.heat-diff, .heads-notes, .split-intro'), null);
  assert.ok((await contentHeight(heat)) < 1200);
  assert.deepEqual(problems, [], 'no console errors and no request off the origin');
  return { context, page };
}

test('the sample notes page: every figure shows whole, nothing leaves the origin', async () => {
  for (const lang of ['zh', 'en']) {
    const { context, page } = await checkNotes(BASE_URL, lang);
    await shot(page, `notes-${lang}`);
    await context.close();
  }
});

test('the sample notes page works with dist/ served from a sub-path', async () => {
  const server = await subPathServer();
  try {
    const { context } = await checkNotes(server.base, 'zh');
    await context.close();
  } finally {
    server.stop();
  }
});

test('an embedded figure does not overwrite the reader\'s saved work or language', async () => {
  const { context, page, problems } = await openPage(browser);
  await saveWork(page);
  await page.goto(BASE_URL + 'notes.html?lang=zh');
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height), null, { timeout: 15000 });
  await expectSavedWork(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('copy embed code gives an iframe for this scenario and an origin-checking listener', async () => {
  const { context, page, problems } = await openPage(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  await page.goto(BASE_URL + '?lang=zh');
  await ready(page);
  const code = await copied(page, '#copy-embed');
  const src = code.match(/<iframe src="([^"]+)"/)[1];
  assert.ok(src.startsWith(new URL(BASE_URL).origin + '/'), src);
  assert.match(src, /embed=1/);
  assert.match(src, /lang=zh/);
  assert.match(src, /#s=[A-Za-z0-9_-]+$/);
  assert.ok(code.includes(`e.origin !== "${new URL(BASE_URL).origin}"`));
  // The snippet works: a host page with it sizes the iframe.
  const host = `<!doctype html><meta charset=utf-8><body>${code}</body>`;
  await page.route(BASE_URL + 'host.html', (route) => route.fulfill({ contentType: 'text/html', body: host }));
  await page.goto(BASE_URL + 'host.html');
  await page.waitForFunction(() => document.querySelector('iframe').style.height, null, { timeout: 15000 });
  // The default figure is the stage: compact, as a figure in notes should be.
  const height = parseFloat(await page.$eval('iframe', (f) => f.style.height));
  assert.ok(height > 200 && height <= 640, `${height}px`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the embed code can name the heatmaps figure', async () => {
  const { context, page, problems } = await openPage(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  // An instructor working in the column layout, walkthrough by dot product.
  await page.goto(BASE_URL + '?lang=en&convention=col&granularity=dot' + shareFragment(TWO_HEADS));
  await ready(page);
  await page.selectOption('#embed-view', 'heatmaps');
  const src = (await copied(page, '#copy-embed')).match(/<iframe src="([^"]+)"/)[1];
  assert.match(src, /[?&]embed=1&view=heatmaps&lock=1&lang=en&convention=col&granularity=dot(&speed=1)?#s=/);
  await page.goto(src);
  await page.waitForSelector('[data-heatmap="2"][data-draw-ms]');
  assert.equal(await page.$('.workbench'), null);
  assert.match(await page.textContent('.heads-panel .axes'), /Rows are keys/, 'the same layout as the page it came from');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a locked page offers a share link that keeps lock=1 and never touches saved work', async () => {
  const { context, page, problems } = await openPage(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  await saveWork(page);
  // An instructor's locked link.
  await page.goto(BASE_URL + '?lang=zh&lock=1' + shareFragment(TWO_HEADS));
  await ready(page);
  assert.equal(await page.$$eval('[data-matrix] input', (els) => els.length), 0, 'nothing editable');
  assert.equal(await page.$('#preset'), null, 'no presets');
  assert.equal(await page.$('#undo'), null, 'no undo');
  assert.equal(await page.$('#import-scenario'), null, 'no import');
  assert.ok(await page.$('.toolbar .segmented'), 'the rows/columns switch stays (it changes the view, not the numbers)');
  // The address is still the full link.
  assert.match(page.url(), /lock=1.*#s=/);
  const link = await copied(page, '#share');
  assert.match(link, /[?&]lock=1/);
  assert.match(link, /[?&]lang=zh/);
  assert.match(link, /#s=[A-Za-z0-9_-]+$/);
  // The link opens the same numbers, locked.
  await page.goto(link);
  await ready(page);
  assert.equal(await page.getAttribute('[data-matrix="x"] [data-row="0"][data-col="0"]', 'data-value'), '1');
  assert.equal(await page.$$eval('[data-matrix] input', (els) => els.length), 0);
  assert.equal(await page.$$eval('canvas[data-heatmap]', (c) => c.length), 2);
  // The reader's saved work and language are untouched.
  await expectSavedWork(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('no interface text is left untranslated, in either language', async () => {
  // Technical symbols stay as the notes write them; "English"/"中文" name the
  // other language; "saw" is the example sentence.
  const allowed = new Set(['PNG', 'SVG', 'CSV', 'GPU', 'Ctrl', 'Shift', 'Enter', 'Query', 'Key', 'Value', 'W_O', 'W_Q', 'W_K', 'W_V', 'w_q', 'w_k', 'w_v',
    'w_o', 'softmax', 'NumPy', 'PyTorch', 'd_k', 'd_model', 'd_v', 'saw', 'English', 'head', 'row', 'column',
    // Token labels are data: note 004's "input 1", the two-heads sentence.
    'input', 'The', 'cat', 'sat', 'down',
    // Math in the stage and the labs: functions and symbols as the notes write them.
    'cos', 'exp', 'max', 'tanh', 'q_c', 'k_c', 'q_x', 'k_x', 'q_y', 'k_y', 'W_a', 'U_a', 'w_a',
    // The labs name models and operations as the notes do.
    'CNN', 'RNN', 'GNN', 'dropout', 'Transformer', 'sin', 'Linformer', 'elu', 'log_k']);
  const views = ['?lang=zh', '?lang=zh&convention=col&granularity=dot&step=7', '?lang=zh&embed=1&view=walkthrough&lock=1',
    '?lang=zh&embed=1&view=heatmaps' + shareFragment(TWO_HEADS),
    '?lang=zh&embed=1&view=scoring', '?lang=zh&embed=1&view=geometry', '?lang=zh&embed=1&view=scaling',
    '?lang=zh&embed=1&view=positions', '?lang=zh&embed=1&view=masks', '?lang=zh&embed=1&view=dropout', '?lang=zh&embed=1&view=cost'];
  for (const view of views) {
    const { context, page, problems } = await openPage(browser, { locale: 'zh-CN' });
    await page.goto(BASE_URL + view);
    await ready(page);
    if (!view.includes('embed')) await page.click('[data-matrix="weights"][data-head="1"] [data-row="0"][data-col="1"]');
    if (/view=(scoring|geometry|scaling|positions|masks|dropout|cost)/.test(view)) {
      await page.click('[data-lab] .predict .skip');
      await page.waitForSelector('[data-lab] .verdict');
    }
    if (view.includes('heatmaps')) {
      // The tooltip of a cell and the table alternative, too.
      await page.focus('[data-heatmap="1"]');
      await page.keyboard.press('ArrowDown');
      await page.waitForSelector('.heat-tip');
      await page.click('.heat-fig .heat-tools button[aria-expanded="false"]');
    }
    const words = await page.evaluate(() => {
      const skip = (el) => el.closest('math, [data-matrix] table, script, style');
      const out = new Set();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.parentElement && !skip(n.parentElement)) for (const w of n.textContent.match(/[A-Za-z][A-Za-z_]{2,}/g) ?? []) out.add(w);
      }
      for (const el of document.querySelectorAll('[aria-label], [title]')) {
        if (el.closest('[data-matrix] table')) continue;
        const text = `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''}`;
        for (const w of text.match(/[A-Za-z][A-Za-z_]{2,}/g) ?? []) out.add(w);
      }
      return [...out];
    });
    assert.deepEqual(words.filter((w) => !allowed.has(w)), [], `English left on ${view}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
  // And no Chinese in the English page, but for the switch to Chinese.
  const { context, page } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  const cjk = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement?.closest('[data-matrix] table, .lang-switch, option')) continue;
      if (/[\u4e00-\u9fff]/.test(n.textContent)) out.push(n.textContent.trim());
    }
    return out;
  });
  assert.deepEqual(cjk, []);
  await context.close();
});

test('an embedded figure fits a 700 px iframe in both languages; it keeps working offline', async () => {
  for (const lang of ['zh', 'en']) {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=walkthrough`);
    await ready(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${lang}: scrolls sideways by ${overflow}px`);
    // The network goes away after load: the stage still steps, and in the
    // workbench figure editing still recomputes.
    await context.setOffline(true);
    await page.click('#wt-fwd');
    await page.waitForSelector('[data-figure="stage"][data-step="2"]');
    await context.setOffline(false);
    await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=workbench`);
    await ready(page);
    await context.setOffline(true);
    const cell = '[data-matrix="x"] [data-row="0"][data-col="0"] input';
    await page.fill(cell, '2');
    await page.press(cell, 'Enter');
    assert.equal(await page.getAttribute('[data-matrix="x"] [data-row="0"][data-col="0"]', 'data-value'), '2');
    assert.notEqual(await page.getAttribute('[data-matrix="output"] [data-row="0"][data-col="0"]', 'data-value'), null);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('an embedded figure\'s height follows its content down and up, from another origin', async () => {
  // Two frames made far too tall by their host: the stage, and a lab that
  // grows once its question is answered.
  host.pages.set('/tall.html', `<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>host</title>
<body style="margin:0">
<iframe id="stage" src="${BASE_URL}?embed=1&view=walkthrough&lock=1&lang=en" style="display:block;width:700px;height:1500px;border:0" title="stage"></iframe>
<iframe id="lab" src="${BASE_URL}?embed=1&view=scaling&lock=1&lang=en" style="display:block;width:700px;height:1500px;border:0" title="lab"></iframe>
<script>
  window.posted = { stage: [], lab: [] };
  addEventListener('message', (e) => {
    if (e.origin !== ${JSON.stringify(new URL(BASE_URL).origin)} || !e.data || e.data.type !== 'attention-lab:height') return;
    for (const f of document.querySelectorAll('iframe')) {
      if (f.contentWindow === e.source) { window.posted[f.id].push(e.data.height); f.style.height = e.data.height + 'px'; }
    }
  });
</script>`);
  const { context, page, problems } = await openPage(browser, { viewport: { width: 800, height: 3200 }, origin: host.base });
  await page.goto(`${host.base}/tall.html`);
  const stage = await (await page.$('#stage')).contentFrame();
  await stage.waitForSelector('[data-figure="stage"] svg [data-value]');
  // Shrinks: the stage's frame goes from 1500 px to the stage's own height.
  const h = await contentHeight(stage);
  assert.ok(h > 200 && h <= 640, `stage ${h}px`);
  await frameHeight(page, '#stage', h);
  const lab = await (await page.$('#lab')).contentFrame();
  await lab.waitForSelector('[data-lab="scaling"] .predict .skip');
  const question = await contentHeight(lab);
  assert.ok(question < 600, `the question alone is ${question}px`);
  await frameHeight(page, '#lab', question);
  // Grows: answering shows the experiment.
  await lab.click('[data-lab="scaling"] .predict .skip');
  await lab.waitForSelector('[data-lab="scaling"] svg[data-hist]');
  const answered = await contentHeight(lab);
  assert.ok(answered > question + 300, `${question}px → ${answered}px`);
  await frameHeight(page, '#lab', answered);
  // Shrinks again when the content does (a narrower figure is taller: back
  // to the wider frame, back to the shorter height).
  await page.$eval('#lab', (f) => { f.style.width = '420px'; });
  await lab.waitForFunction((h0) => Math.ceil(document.querySelector('main').getBoundingClientRect().height) > h0, answered);
  const narrow = await contentHeight(lab);
  await frameHeight(page, '#lab', narrow);
  await page.$eval('#lab', (f) => { f.style.width = '700px'; });
  await lab.waitForFunction((h0) => Math.ceil(document.querySelector('main').getBoundingClientRect().height) < h0, narrow);
  const wide = await contentHeight(lab);
  await frameHeight(page, '#lab', wide);
  const posted = await page.evaluate(() => window.posted);
  assert.ok(posted.stage[0] < 1500 && posted.lab.includes(question) && posted.lab.includes(answered) && posted.lab.at(-1) === wide, JSON.stringify(posted));
  assert.deepEqual(problems.filter((p) => !p.includes(new URL(BASE_URL).origin)), []);
  await context.close();
});

test('the embed code carries the walkthrough\'s step and each lab\'s view and settings', async () => {
  const { context, page, problems } = await openPage(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  const srcOf = async () => (await copied(page, '#copy-embed')).match(/<iframe src="([^"]+)"/)[1];
  // The walkthrough at step 4, at 1.5× in the column layout.
  await page.goto(BASE_URL + '?lang=en&convention=col&speed=1.5');
  await ready(page);
  for (const k of [2, 3, 4]) {
    await page.click('#wt-fwd');
    await page.waitForSelector(`[data-figure="stage"][data-step="${k}"]`);
  }
  const walk = await srcOf();
  assert.match(walk, /[?&]view=walkthrough&lock=1&lang=en&convention=col&speed=1\.5&step=4#s=/);
  // The scaling lab after the reader set d_k = 16 and seed 7.
  await page.click('[data-lab="scaling"] .predict .skip');
  await page.fill('#lab-dk', '16');
  await page.press('#lab-dk', 'Enter');
  await page.fill('#lab-seed', '7');
  await page.press('#lab-seed', 'Enter');
  await page.waitForFunction(() => location.search.includes('scaling.seed=7'));
  await page.selectOption('#embed-view', 'scaling');
  const scaling = await srcOf();
  assert.match(scaling, /[?&]view=scaling&/);
  assert.match(scaling, /[?&]scaling\.dk=16&scaling\.seed=7/);
  assert.ok(!/[?&]step=/.test(scaling), scaling);
  // The cost lab: window and rank set by the reader, the metric from the address.
  await page.click('[data-lab="cost"] .predict .skip');
  await page.fill('#lab-cost-w', '3');
  await page.press('#lab-cost-w', 'Enter');
  await page.selectOption('#lab-cost-metric', 'exps');
  await page.waitForFunction(() => location.search.includes('cost.metric=exps'));
  await page.selectOption('#embed-view', 'cost');
  const cost = await srcOf();
  assert.match(cost, /[?&]view=cost&.*cost\.window=3&cost\.metric=exps/);
  // Every figure of the menu embeds as itself.
  for (const view of ['heatmaps', 'workbench', 'scoring', 'positions', 'masks', 'dropout', 'geometry']) {
    await page.selectOption('#embed-view', view);
    assert.match(await srcOf(), new RegExp(`[?&]view=${view}&`));
  }
  // The copied figures open as the reader left them.
  await page.goto(walk);
  await page.waitForSelector('[data-figure="stage"][data-step="4"][data-speed="1.5"]');
  await page.goto(scaling);
  await page.click('[data-lab="scaling"] .predict .skip');
  assert.equal(await page.inputValue('#lab-dk'), '16');
  assert.equal(await page.inputValue('#lab-seed'), '7');
  assert.equal(await page.getAttribute('[data-lab="scaling"] tr.now', 'data-dk'), '16');
  await page.goto(cost);
  await page.click('[data-lab="cost"] .predict .skip');
  assert.equal(await page.inputValue('#lab-cost-w'), '3');
  assert.equal(await page.inputValue('#lab-cost-metric'), 'exps');
  assert.deepEqual(problems, []);
  await context.close();
});

test('view=heatmaps embedded is the heatmaps alone, much shorter than the page\'s heads panel', async () => {
  const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
  await page.goto(`${BASE_URL}?lang=en&lock=1${shareFragment(TWO_HEADS)}`);
  await page.waitForSelector('[data-heatmap="2"][data-draw-ms]');
  await page.waitForSelector('.heat-diff canvas[data-heatmap-diff]', { state: 'attached' });
  const panel = await page.$eval('.heads-panel', (el) => el.getBoundingClientRect().height);
  await page.goto(`${BASE_URL}?embed=1&view=heatmaps&lock=1&lang=en${shareFragment(TWO_HEADS)}`);
  await page.waitForSelector('[data-heatmap="2"][data-draw-ms]');
  assert.equal(await page.$$eval('canvas[data-heatmap]', (c) => c.length), 2, 'the two heads, no difference map');
  for (const extra of ['.heat-diff', '.split-intro', '[data-figure="heads-notes"]', '.heads-panel section.step']) {
    assert.equal(await page.$(extra), null, `no ${extra}`);
  }
  const embedded = await contentHeight(page.mainFrame());
  assert.ok(embedded < 1100 && embedded < panel / 2, `embedded ${embedded}px, the page's panel ${panel}px`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('caption=1 names the scenario and, for note 004, the rounded and exact weights, in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 900 } });
    // The engine's numbers, as the workbench shows them.
    await page.goto(`${BASE_URL}?embed=1&view=workbench&lock=1&lang=${lang}`);
    await ready(page);
    const out = (await readMatrix(page, '[data-matrix="output"]'))[0].map((v) => String(Math.round(v * 1e4) / 1e4));
    const w = (await readMatrix(page, '[data-matrix="weights"][data-head="1"]'))[0].map((v) => String(Math.round(v * 1e4) / 1e4));
    assert.deepEqual(out, ['1.9366', '6.6831', '1.5951']);
    await page.goto(`${BASE_URL}?embed=1&view=walkthrough&lock=1&caption=1&lang=${lang}`);
    await ready(page);
    const caption = await page.textContent('.embed-caption');
    const sep = lang === 'zh' ? '、' : ', ';
    assert.ok(caption.includes(`[${out.join(', ')}]`), caption);
    assert.ok(caption.includes(w.join(sep)), `${w.join(sep)} in ${caption}`);
    assert.ok(caption.includes(`0${sep}0.5${sep}0.5`) && caption.includes('[2, 7, 1.5]'), caption);
    assert.ok(caption.includes('n = 3, d_model = 4, h = 1'), caption);
    if (lang === 'en') {
      assert.match(caption, /^Note 004's worked example: .*not scaled · Mask: none/);
      assert.match(caption, /the note approximates the first row of weights/);
    } else {
      assert.match(caption, /^笔记 004 的例子：.*不缩放 · 掩码：无/);
      assert.match(caption, /笔记为了好算/);
    }
    // The caption comes before the stage, and the stage still fits 640 px.
    assert.ok(await page.$eval('.embed-caption', (c) => c.compareDocumentPosition(document.querySelector('[data-figure="stage"]')) & Node.DOCUMENT_POSITION_FOLLOWING));
    assert.ok((await contentHeight(page.mainFrame())) <= 640);
    await shot(page, `stage-caption-${lang}`);
    // Another scenario: its sizes, scaling and mask; no note.
    await page.goto(`${BASE_URL}?embed=1&view=heatmaps&lock=1&caption=1&lang=${lang}${shareFragment(TWO_HEADS)}`);
    await page.waitForSelector('[data-heatmap="2"][data-draw-ms]');
    const other = await page.textContent('.embed-caption');
    assert.ok(other.includes('n = 4, d_model = 4, h = 2'), other);
    assert.match(other, lang === 'zh' ? /分数除以 √d_k · 掩码：因果/ : /scaled by √d_k · Mask: causal/);
    assert.equal(await page.$('.caption-note'), null);
    // Without caption=1 there is none.
    await page.goto(`${BASE_URL}?embed=1&view=walkthrough&lock=1&lang=${lang}`);
    await ready(page);
    assert.equal(await page.$('.embed-caption'), null);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the math font is fetched by a figure that shows a formula, and only by one', async () => {
  for (const [view, formula] of [['heatmaps', false], ['masks', false], ['cost', false], ['walkthrough', true]]) {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 700, height: 800 } });
    const fonts = [];
    page.on('request', (r) => { if (r.url().endsWith('.woff2')) fonts.push(r.url()); });
    await page.goto(`${BASE_URL}?lang=en&embed=1&view=${view}`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    const shown = await page.evaluate(() => [...document.querySelectorAll('math')].filter((m) => m.getClientRects().length).length);
    assert.equal(shown > 0, formula, `${view}: a formula on screen`);
    assert.equal(fonts.length, formula ? 1 : 0, `${view}: ${fonts.join(', ')}`);
    if (formula) {
      await page.evaluate(() => document.fonts.ready);
      assert.ok(await page.evaluate(() => [...document.fonts].some((f) => f.family.includes('STIX Two Math Lab') && f.status === 'loaded')), `${view}: the math font is in use`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});
