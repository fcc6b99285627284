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
import { launch, openPage, ready, readMatrix, shot, shareFragment, TWO_HEADS, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });

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
after(async () => { await browser?.close(); });

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
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height), null, { timeout: 15000 });
  for (const frame of frames) {
    const f = await frame.contentFrame();
    assert.ok(f.url().startsWith(base), `${f.url()} under ${base}`);
    const inner = await f.evaluate(() => document.documentElement.scrollHeight);
    const outer = await frame.evaluate((el) => el.getBoundingClientRect().height);
    // The frame takes its content's height, at most 760 px (then it scrolls
    // inside): every figure of the notes stays under 800 px.
    assert.ok(Math.abs(outer - Math.min(760, inner)) <= 2, `iframe ${outer}px for content ${inner}px`);
    assert.ok(outer < 800, `figure ${outer}px tall`);
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
  // The lab grows once answered; its frame follows, up to 760 px.
  const lab = await frames[4].contentFrame();
  await lab.click('[data-lab="scaling"] .predict .skip');
  await lab.waitForSelector('[data-lab="scaling"] svg[data-hist]');
  await page.waitForFunction(() => parseFloat(document.querySelectorAll('iframe')[4].style.height) >= 700);
  assert.ok((await frames[4].evaluate((el) => el.getBoundingClientRect().height)) < 800);
  const heat = await frames[2].contentFrame();
  assert.equal(await heat.$$eval('canvas[data-heatmap][data-draw-ms]', (c) => c.length), 2);
  assert.deepEqual(problems, [], 'no console errors and no request off the origin');
  return { context, page };
}

test('the sample notes page: figures grow to their height, nothing leaves the origin', async () => {
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
