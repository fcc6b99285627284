// Shared by the end-to-end tests: Debian's Chromium driven by playwright-core
// over the built dist/ served on 127.0.0.1 (scripts/test.sh sets BASE_URL).
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
    ],
  });
}

/** A new page that records console errors, page errors and off-origin requests. */
export async function openPage(browser, { locale = 'en-US', viewport = { width: 1280, height: 900 }, deviceScaleFactor = 1, origin = new URL(BASE_URL).origin, ...more } = {}) {
  const context = await browser.newContext({ locale, viewport, deviceScaleFactor, ...more });
  context.on('page', settleBeforeClicks);
  const page = await context.newPage();
  settleBeforeClicks(page);
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request off origin: ${url}`);
    }
  });
  return { context, page, problems };
}

/** The sections static/style.css gives `content-visibility: auto`. */
const SKIPPABLE = '.head, .step';

/** Sections off screen are skipped by content-visibility: auto
 * (static/style.css) and hold a 480 px placeholder until they come into
 * view; their real height, laid out a frame or two after a scroll, moves
 * what is below them. A click aimed right after the driver has scrolled can
 * press on one element and release on another (seen on a loaded machine:
 * "Add a layer" moved 520 px up between mousedown and mouseup, and no click
 * happened). So `page.click`, `check`, `uncheck`, `tap` and `dblclick` on
 * every page of a context made by `openPage` first scroll their target into
 * view and wait until no such section in the viewport is still skipped. */
function settleBeforeClicks(page) {
  if (page.settlesBeforeClicks) return;
  page.settlesBeforeClicks = true;
  for (const name of ['click', 'check', 'uncheck', 'tap', 'dblclick']) {
    const act = page[name].bind(page);
    page[name] = async (selector, options) => {
      await settle(page, selector, options?.timeout);
      return act(selector, options);
    };
  }
}

/** Scrolls the first match of `selector` into view and waits until every
 * content-visibility section the viewport shows is laid out. */
export async function settle(page, selector, timeout) {
  await page.locator(selector).first().scrollIntoViewIfNeeded({ timeout });
  await page.waitForFunction((skippable) => [...document.querySelectorAll(skippable)].every((e) => {
    const r = e.getBoundingClientRect();
    const inView = r.bottom > 0 && r.top < innerHeight;
    const c = e.firstElementChild;
    // Skipped: shown but for content-visibility (a child hidden by its own
    // style is not waited for).
    return !inView || !c || !c.checkVisibility() || c.checkVisibility({ contentVisibilityAuto: true });
  }), SKIPPABLE, { timeout });
}

/** Waits until the app has rendered its output matrix (or, in an embedded
 * figure, drawn a heatmap or the stage). */
export async function ready(page) {
  await page.waitForSelector('[data-matrix="output"] [data-value], [data-heatmap][data-draw-ms], [data-figure="stage"] svg [data-value], [data-lab]', { timeout: 15000 });
}

/** Clicks the language switch and waits until the page is in `lang`
 * ("zh-CN" or "en"): the other language's words file is fetched on the
 * switch (docs/performance.md, "Each language's words when it is read"),
 * so the page changes language only once it has arrived. */
export async function switchLanguage(page, lang) {
  await page.click('.lang-switch');
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

/** The English page with one edit to undo: x[0][0] set to 7. Returns the
 * edited cell's selector. (For tests that check an event elsewhere never
 * runs the page's Undo.) */
export async function withEditToUndo(page) {
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  const cell = '[data-matrix="x"] [data-row="0"][data-col="0"]';
  await page.fill(`${cell} input`, '7');
  await page.press(`${cell} input`, 'Enter');
  await page.waitForSelector('#undo:not([disabled])');
  return cell;
}

/** The data-value of every cell of the first element matching `selector`,
 * as rows, once the page has caught up with the last edit: a part off screen
 * follows an edit in a task after the frame that paints it
 * (docs/architecture.md, "What an edit's frame holds"; `use_when_seen` in
 * src/app/hooks/when_seen.rs), and a part inside such a part may wait one frame
 * more, so this first lets two frames, each with a task after it, go by.
 * (Playwright's selectOption returns before the edit's frame.) */
export async function readMatrix(page, selector) {
  await page.evaluate(async () => {
    for (let k = 0; k < 2; k++) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  });
  return page.$eval(selector, (fig) => {
    const rows = [];
    for (const cell of fig.querySelectorAll('[data-row][data-col]')) {
      const r = Number(cell.dataset.row);
      const c = Number(cell.dataset.col);
      (rows[r] ??= [])[c] = Number(cell.dataset.value);
    }
    return rows;
  });
}

/** A full-page screenshot. Sections off screen are skipped by the renderer
 * (content-visibility: auto) until they scroll into view, so render them all
 * for the picture. */
export async function shot(page, name) {
  mkdirSync('test-results', { recursive: true });
  const style = await page.addStyleTag({ content: `${SKIPPABLE} { content-visibility: visible !important; }` });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: true });
  await style.evaluate((el) => el.remove());
}

/** base64url without padding, as docs/format.md §4 wants for #s=. */
export function shareFragment(scenario) {
  return '#s=' + Buffer.from(JSON.stringify(scenario), 'utf8').toString('base64url');
}

/** Asserts two matrices are equal entry by entry within a relative tolerance. */
export function assertClose(assert, actual, expected, tol = 1e-12, what = 'matrix') {
  assert.equal(actual.length, expected.length, `${what}: row count`);
  expected.forEach((row, r) => {
    assert.equal(actual[r].length, row.length, `${what}: row ${r} length`);
    row.forEach((e, c) => {
      const a = actual[r][c];
      const ok = Math.abs(a - e) <= tol * Math.max(1, Math.abs(e));
      assert.ok(ok, `${what}[${r}][${c}]: got ${a}, expected ${e}`);
    });
  });
}

/** The "two heads" preset's numbers (head 1: previous token, head 2: first
 * token, causal mask), written out here so tests can open it by link. */
export const TWO_HEADS = {
  format: 'attention-lab/1',
  tokens: ['The', 'cat', 'sat', 'down'],
  x: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
  heads: [
    { w_q: [[3, 0], [0, 3], [-3, 0], [0, -3]], w_k: [[0, 3], [-3, 0], [0, -3], [3, 0]], w_v: [[1, 0], [0, 1], [1, 1], [0, 2]] },
    { w_q: [[3, 0], [3, 0], [3, 0], [3, 0]], w_k: [[3, 0], [0, 0], [0, 0], [0, 0]], w_v: [[2, 0], [0, 1], [1, 0], [1, 1]] },
  ],
  w_o: [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 1, 0], [0, 1, 0, 1]],
  scale: true,
  mask: 'causal',
};

/** A seeded scenario: n tokens, d_model d, h heads of width dk, numbers in
 * [-1, 1] with two decimals (a plain LCG, so every run has the same numbers).
 * `withWo` adds a (h·dk) × d W_O; `extra` sets other fields. */
export function seededScenario(n, d, h, dk, seed, { withWo = false, ...extra } = {}) {
  let s = seed >>> 0;
  const rnd = () => { s = (s * 1664525 + 1013904223) >>> 0; return Math.round((s / 2 ** 32) * 200 - 100) / 100; };
  const m = (r, c) => Array.from({ length: r }, () => Array.from({ length: c }, rnd));
  const scenario = {
    format: 'attention-lab/1',
    x: m(n, d),
    heads: Array.from({ length: h }, () => ({ w_q: m(d, dk), w_k: m(d, dk), w_v: m(d, dk) })),
    ...extra,
  };
  if (withWo) scenario.w_o = m(h * dk, d);
  return scenario;
}

/** A host site on another origin (127.0.0.2), as course sites embed the
 * app: `pages` maps a path to the HTML served there; `close()` stops it. */
export async function hostServer() {
  const { createServer } = await import('node:http');
  const pages = new Map();
  const server = createServer((req, res) => {
    const body = pages.get(req.url.split('?')[0]);
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise((done) => server.listen(0, '127.0.0.2', done));
  return { server, pages, base: `http://127.0.0.2:${server.address().port}`, close: () => server.close() };
}

/** A page of `host` (a hostServer) with one iframe per entry of `frames`
 * ({src, width, sandbox, lazy}), recording the height messages each frame
 * posts in `window.heights` (last one wins); returns its address. */
export function hostPage(host, name, frames) {
  const iframes = frames.map((f, i) => `<iframe id="f${i}" src="${f.src}" style="width:${f.width}px;height:300px;border:0"`
    + `${f.sandbox ? ` sandbox="${f.sandbox}"` : ''}${f.lazy ? ' loading="lazy"' : ''} title="figure ${i}"></iframe>`).join('\n');
  host.pages.set(`/${name}.html`, `<!doctype html><meta charset=utf-8><link rel=icon href="data:,"><title>host</title>
<body style="margin:0">${iframes}
<script>
  window.heights = {};
  addEventListener('message', (e) => {
    if (!e.data || e.data.type !== 'attention-lab:height') return;
    for (const f of document.querySelectorAll('iframe')) {
      if (f.contentWindow === e.source) {
        window.heights[f.id] = { height: e.data.height, origin: e.origin };
        f.style.height = Math.ceil(e.data.height) + 'px';
      }
    }
  });
</script>`);
  return `${host.base}/${name}.html`;
}

/** Note 004's worked example as typed from the note (one head, no scaling). */
export const NOTE_004 = {
  format: 'attention-lab/1',
  x: [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]],
  heads: [{
    w_q: [[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]],
    w_k: [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]],
    w_v: [[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]],
  }],
  scale: false,
};

/** Note 004 with x[r][c] = v. */
export function withX(r, c, v) {
  const s = structuredClone(NOTE_004);
  s.x[r][c] = v;
  return s;
}
