// The cross-engine suite: each flow written once against the small driver
// interface of tests/cross/drivers/*.mjs, run in Chromium, Firefox ESR and
// WebKitGTK by one tests/cross/<engine>.test.mjs each (scripts/test.sh runs
// the three files in parallel). One page per language per flow; the
// selectors and expectations are those of the Chromium-only tests/e2e.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { reference } from '../e2e/reference.mjs';
import { hostServer, hostPage, NOTE_004, withX } from '../e2e/helpers.mjs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
const SHOTS = process.env.CROSS_SHOTS ?? 'test-results/cross';
const LANGS = ['zh', 'en'];
const stage = '[data-figure="stage"]';

// Note 004 as typed from the note (tests/e2e/helpers.mjs).
const NOTE = NOTE_004;
const cell = (name, r, c) => `[data-matrix="${name}"] [data-row="${r}"][data-col="${c}"]`;

/** Page-side: the data-value of every cell of `selector`, as rows. */
function readMatrix(page, selector) {
  return page.evaluate((sel) => {
    const rows = [];
    for (const td of document.querySelector(sel).querySelectorAll('[data-row][data-col]')) {
      (rows[Number(td.dataset.row)] ??= [])[Number(td.dataset.col)] = Number(td.dataset.value);
    }
    return rows;
  }, selector);
}

function assertClose(actual, expected, what, tol = 1e-12) {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  expected.forEach((row, r) => row.forEach((e, c) => {
    assert.ok(Math.abs(actual[r][c] - e) <= tol * Math.max(1, Math.abs(e)), `${what}[${r}][${c}]: got ${actual[r][c]}, expected ${e}`);
  }));
}

const ready = (page) => page.waitFor('[data-matrix="output"] [data-value], [data-figure="stage"] svg [data-value], [data-lab]');
const focused = (page) => page.evaluate(() => {
  const td = document.activeElement?.closest('td');
  return td ? `${td.closest('[data-matrix]').dataset.matrix} ${td.dataset.row},${td.dataset.col}` : document.activeElement?.tagName;
});

/** Registers the suite for one engine (a module of tests/cross/drivers). */
export function run(driver) {
  let engine;
  let host;
  const pages = new Set();
  before(async () => {
    engine = await driver.launch();
    host = await hostServer();
    mkdirSync(SHOTS, { recursive: true });
    console.log(`# ${driver.name}: ${engine.version}`);
  });
  after(async () => {
    for (const p of pages) await p.close().catch(() => {});
    await engine?.close();
    host?.close();
  });
  /** Whether the page's browser still runs a script. */
  const answers = (page) => page.evaluate(() => true).then((v) => v === true, () => false);
  /** Opens a page, runs `body(page)`, checks the console stayed clean.
   * The browser itself can go away under the driver (WebKitGTK's
   * MiniBrowser has now and then crashed on CI's loaded machine: WebDriver
   * then answers "unknown error", later "invalid session id"). That says
   * nothing about the page: the flow then runs once more from the start
   * in a new browser. A page that still answers failed on its own (an
   * assertion, a timeout), and is never run again. */
  async function withPage(opts, body) {
    for (let retried = false; ; retried = true) {
      const page = await engine.newPage(opts);
      pages.add(page);
      let dead = false;
      try {
        await body(page);
        assert.deepEqual(page.problems, [], 'console errors');
        return;
      } catch (e) {
        dead = !(await answers(page));
        if (retried || !dead) throw e;
        console.log(`# ${driver.name}: the browser died under the flow (${String(e?.message).split('\n')[0]}); running it once more`);
      } finally {
        pages.delete(page);
        await (dead ? page.close().catch(() => {}) : page.close());
      }
    }
  }
  const name = (what) => `${driver.name}: ${what}`;

  for (const lang of LANGS) {
    test(name(`first load (${lang}): note 004's outputs, then the labs load after it`), () => withPage({ lang }, async (page) => {
      await page.goto(`${BASE_URL}?lang=${lang}`);
      await ready(page);
      assertClose(await readMatrix(page, '[data-matrix="output"]'), reference(NOTE).output, 'output');
      assert.equal(await page.text(`${cell('output', 0, 0)}`), '1.9366');
      assert.equal(await page.text('h1'), lang === 'zh' ? '注意力实验室' : 'Attention Lab');
      assert.equal(await page.attr('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en');
      assert.equal(await page.evaluate(() => document.querySelector('[role="alert"]')), null, 'no alert');
      // The labs' chunk is fetched after the first paint.
      await page.waitFor('.labs [data-lab="scaling"]', undefined, { timeout: 30000 });
      assert.notEqual(await page.attr('.labs', 'data-labs'), 'failed');
      // A computed cell, clicked: its derivation ends with its exact value
      // (the tooltip a finger never sees).
      const weight = '[data-matrix="weights"][data-head="1"] [data-row="0"][data-col="1"]';
      await page.click(weight);
      await page.waitFor('.derivation .exact [data-exact]');
      assert.equal(await page.text('.derivation .exact [data-exact]'), await page.attr(weight, 'data-value'));
    }));

    test(name(`workbench (${lang}): an edit, a refused edit, the keyboard between cells`), () => withPage({ lang }, async (page) => {
      await page.goto(`${BASE_URL}?lang=${lang}`);
      await ready(page);
      const input = (r, c) => `${cell('x', r, c)} input`;
      await page.fill(input(0, 1), '2');
      await page.waitFor((sel) => document.querySelector(sel).dataset.value === '2', cell('x', 0, 1));
      assertClose(await readMatrix(page, '[data-matrix="output"]'), reference(withX(0, 1, 2)).output, 'output after the edit');
      assert.equal(await focused(page), 'x 1,1', 'Enter moved down one row');
      const good = await readMatrix(page, '[data-matrix="output"]');
      // Text that is not a number: refused on that cell, with a message.
      await page.fill(input(1, 1), 'abc');
      await page.waitFor((sel) => document.querySelector(sel)?.getAttribute('aria-invalid') === 'true', input(1, 1));
      const msg = await page.text('[data-matrix="x"] [role="alert"]');
      assert.match(msg, /abc/);
      assert.ok(await page.evaluate(() => {
        const r = document.querySelector('[data-matrix="x"] [role="alert"]').getBoundingClientRect();
        return r.width > 0 && r.height > 0;
      }), 'the message is visible');
      assert.equal(await page.attr(cell('x', 1, 1), 'data-value'), '2', 'the last good value stays');
      assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), good);
      // Escape restores it; then the arrow keys and Enter walk the grid.
      await page.press('Escape');
      await page.waitFor((sel) => document.querySelector(sel).value === '2' && !document.querySelector('[data-matrix="x"] [role="alert"]'), input(1, 1));
      await page.click(input(0, 0));
      await page.evaluate((sel) => document.querySelector(sel).select(), input(0, 0));
      for (const [key, want] of [['ArrowDown', 'x 1,0'], ['ArrowRight', 'x 1,1'], ['ArrowRight', 'x 1,2'], ['ArrowUp', 'x 0,2'], ['Enter', 'x 1,2'], ['ArrowLeft', 'x 1,1']]) {
        await page.press(key);
        await page.waitFor((w) => {
          const td = document.activeElement?.closest('td');
          return td && `${td.closest('[data-matrix]').dataset.matrix} ${td.dataset.row},${td.dataset.col}` === w;
        }, want, { timeout: 3000 }).catch(async () => assert.equal(await focused(page), want, `after ${key}`));
      }
      assert.deepEqual(await readMatrix(page, '[data-matrix="output"]'), good, 'moving changed nothing');
    }));

    test(name(`stage (${lang}): steps, Play at 0.5×, 1× and 1.5×`), () => withPage({ lang }, async (page) => {
      await page.goto(`${BASE_URL}?lang=${lang}&step=5`);
      await ready(page);
      const step = () => page.attr(stage, 'data-step');
      assert.equal(await step(), '5');
      await page.click('#wt-fwd');
      await page.waitFor((s) => document.querySelector(s).dataset.step === '6', stage);
      await page.click('#wt-back');
      await page.click('#wt-back');
      await page.waitFor((s) => document.querySelector(s).dataset.step === '4', stage);
      await page.click('#wt-restart');
      await page.waitFor((s) => document.querySelector(s).dataset.step === '1', stage);
      const rates = {};
      for (const [i, speed] of ['0.5', '1', '1.5'].entries()) {
        await page.click(`${stage} .speeds button:nth-child(${i + 1})`);
        await page.waitFor(([s, v]) => document.querySelector(s).dataset.speed === v, [stage, speed]);
        // Play for at least 0.8 s and 8 renders. The speed is the slope of
        // data-time against the moment each render wrote it (seen by a
        // MutationObserver). A render is seen some time after it read the
        // clock, and on a busy machine that delay varies from frame to frame,
        // so the slope is the median of the slopes between every two samples
        // at least 100 ms apart (Theil–Sen), which a few slow renders cannot
        // move. The render the click itself caused is left out.
        const r = await page.evaluate(() => new Promise((done) => {
          const s = document.querySelector('[data-figure="stage"]');
          const play = document.querySelector('#wt-play');
          const samples = [];
          const t0 = performance.now();
          let over = false;
          const finish = () => {
            if (over) return;
            over = true;
            seen.disconnect();
            const out = { playing: s.dataset.playing, samples: samples.length };
            const slopes = [];
            for (let a = 1; a < samples.length; a++) {
              for (let b = a + 1; b < samples.length; b++) {
                const [ta, va] = samples[a];
                const [tb, vb] = samples[b];
                if (tb - ta >= 100) slopes.push((vb - va) / (tb - ta));
              }
            }
            slopes.sort((x, y) => x - y);
            out.rate = slopes.length ? slopes[Math.floor(slopes.length / 2)] : NaN;
            play.click();
            done(out);
          };
          const seen = new MutationObserver(() => {
            samples.push([performance.now(), Number(s.dataset.time)]);
            if (samples.length >= 8 && performance.now() - t0 > 800) finish();
          });
          seen.observe(s, { attributes: true, attributeFilter: ['data-time'] });
          play.click();
          setTimeout(finish, 8000);
        }));
        assert.equal(r.playing, 'true', `${speed}×: playing`);
        assert.ok(r.samples >= 4, `${speed}×: ${r.samples} renders while playing`);
        rates[speed] = r.rate;
        await page.waitFor((s) => document.querySelector(s).dataset.playing === 'false', stage);
      }
      // Virtual time runs at the chosen speed.
      for (const [speed, rate] of Object.entries(rates)) {
        assert.ok(rate > 0.75 * speed && rate < 1.25 * speed, `${speed}×: rate ${rate.toFixed(2)} (${JSON.stringify(rates)})`);
      }
      // The three measured windows add up to about 1.8 virtual seconds, the
      // length of the first step itself, so play on until the step changes.
      await page.click('#wt-play');
      await page.waitFor((s) => Number(document.querySelector(s).dataset.step) > 1, stage);
      await page.click('#wt-play');
      await page.waitFor((s) => document.querySelector(s).dataset.playing === 'false', stage);
    }));

    test(name(`a lab (${lang}): predict, reveal, and its figure`), () => withPage({ lang, width: 700, height: 900 }, async (page) => {
      await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=scaling`);
      await ready(page);
      const lab = '[data-lab="scaling"]';
      assert.equal(await page.evaluate((l) => document.querySelector(`${l} svg[data-hist]`), lab), null, 'the numbers wait for an answer');
      await page.click(`${lab} [data-answer="0"]`);
      await page.waitFor(`${lab} svg[data-hist="raw"]`);
      assert.match(await page.text(`${lab} .verdict`), lang === 'zh' ? /猜对了/ : /Right/);
      const variance = Number(await page.attr(`${lab} svg[data-hist="raw"]`, 'data-variance'));
      assert.ok(Math.abs(variance / 64 - 1) < 0.15, `variance ${variance}`);
      const bars = await page.evaluate((l) => [...document.querySelectorAll(`${l} svg[data-hist="raw"] rect`)].filter((r) => r.getBoundingClientRect().height > 0).length, lab);
      assert.ok(bars > 5, `${bars} bars drawn`);
    }));

    test(name(`geometry lab (${lang}): dragged with a mouse, then with a finger`), () => withPage({ lang, width: 700, height: 900, touch: true }, async (page) => {
      await page.goto(`${BASE_URL}?lang=${lang}&embed=1&view=geometry`);
      await ready(page);
      const lab = '[data-lab="geometry"]';
      await page.click(`${lab} [data-answer="0"]`);
      await page.waitFor(`${lab} svg.plane`);
      const score = async () => Number(await page.attr(`${lab} [data-score]`, 'data-score'));
      const weight = async (j) => Number(await page.attr(`${lab} [data-weight="${j}"]`, 'data-value'));
      assert.equal(await score(), 4);
      // Mouse: k² down and left, away from q: its score falls below 0.
      await page.drag(`${lab} [data-vec="k2"]`, -70, 90);
      await page.waitFor(() => Number(document.querySelector('[data-score]').dataset.score) < 0);
      assert.ok((await weight(1)) > (await weight(2)));
      // Touch: back up and right, the score turns positive again.
      const before = await score();
      await page.touchDrag(`${lab} [data-vec="k2"]`, 70, -90);
      await page.waitFor((b) => Number(document.querySelector('[data-score]').dataset.score) > Math.max(0, b), before);
      assert.ok((await weight(2)) > (await weight(1)));
      const sum = (await weight(1)) + (await weight(2)) + (await weight(3));
      assert.ok(Math.abs(sum - 1) < 1e-12, String(sum));
      // The page did not scroll under the finger.
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true);
    }));

    test(name(`a broken #s= link (${lang}) keeps the saved work`), () => withPage({ lang }, async (page) => {
      await page.goto(`${BASE_URL}?lang=${lang}`);
      await ready(page);
      await page.fill(`${cell('x', 0, 0)} input`, '3');
      await page.waitFor(() => localStorage.getItem('attention-lab.scenario')?.includes('[[3,'));
      const saved = await page.evaluate(() => localStorage.getItem('attention-lab.scenario'));
      await page.goto(`${BASE_URL}?lang=${lang}#s=%%%not-base64`);
      await page.waitFor('[role="alert"]');
      const alert = await page.text('[role="alert"]');
      assert.ok(alert.trim().length > 10, `the alert says why: ${alert}`);
      if (lang === 'en') assert.match(alert, /base64url/);
      assert.equal(await page.evaluate(() => localStorage.getItem('attention-lab.scenario')), saved, 'saved work unchanged');
      await page.goto(`${BASE_URL}?lang=${lang}`);
      await ready(page);
      await page.waitFor((sel) => document.querySelector(sel)?.dataset.value === '3', cell('x', 0, 0));
      assertClose(await readMatrix(page, '[data-matrix="output"]'), reference(withX(0, 0, 3)).output, 'the saved work, reopened');
    }));

    test(name(`reduced motion (${lang}): Play jumps between end states`), () => withPage({ lang, reducedMotion: true }, async (page) => {
      await page.goto(`${BASE_URL}?lang=${lang}&granularity=dot`);
      await ready(page);
      assert.equal(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches), true, 'the engine reports reduced motion');
      await page.click(`${stage} .speeds button:nth-child(3)`);
      await page.click('#wt-play');
      const faded = await page.evaluate(() => new Promise((done) => {
        const s = document.querySelector('[data-figure="stage"]');
        const seen = [];
        const tick = () => {
          for (const g of s.querySelectorAll('svg g[opacity]')) seen.push(`${s.dataset.step} ${g.dataset.id} ${g.getAttribute('opacity')}`);
          if (Number(s.dataset.step) >= 4 || s.dataset.playing !== 'true') done(seen); else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }));
      assert.deepEqual(faded.slice(0, 5), []);
      assert.ok(Number(await page.attr(stage, 'data-step')) >= 4, 'the steps still advance');
    }));
  }

  test(name('embedded from a second origin with sandbox="allow-scripts": both languages post their height'), () => withPage({ width: 800, height: 1400 }, async (page) => {
    const url = hostPage(host, `embed-${driver.name}`, LANGS.map((lang) => ({
      src: `${BASE_URL}?embed=1&view=walkthrough&lang=${lang}`, width: 700, sandbox: 'allow-scripts',
    })));
    await page.goto(url);
    const heights = await page.waitFor(() => {
      const h = window.heights;
      return h.f0?.height > 200 && h.f1?.height > 200 && h;
    }, undefined, { timeout: 30000 });
    for (const id of ['f0', 'f1']) {
      // A sandboxed document has an opaque origin: its messages say "null".
      assert.equal(heights[id].origin, 'null', id);
      assert.ok(heights[id].height <= 640, `${id}: ${heights[id].height}`);
    }
  }));

  for (const lang of LANGS) {
    test(name(`a phone (${lang}): 320 px without sideways scroll, 24 px targets, screenshots at 390 px`), async () => {
      for (const width of [320, 390]) {
        await withPage({ lang, width, height: 844, touch: true }, async (page) => {
          for (const [what, query] of [['stage', ''], ['lab', '&embed=1&view=geometry']]) {
            await page.goto(`${BASE_URL}?lang=${lang}${query}`);
            await ready(page);
            if (what === 'lab') {
              await page.click('[data-lab] [data-answer="0"]');
              await page.waitFor('[data-lab] svg.plane');
            } else {
              // Every lab of the full page, revealed.
              await page.waitFor('.labs [data-lab="cost"]', undefined, { timeout: 30000 });
              await page.evaluate(() => document.querySelectorAll('[data-lab] .predict .skip').forEach((b) => b.click()));
              await page.waitFor(() => document.querySelectorAll('[data-lab] .verdict').length === 7);
            }
            const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: innerWidth }));
            assert.equal(m.iw, width, 'viewport width');
            assert.ok(m.sw <= m.iw, `${what} at ${width} px: scrollWidth ${m.sw} > innerWidth ${m.iw}`);
            if (what === 'stage') {
              const small = await page.evaluate(() => [...document.querySelectorAll('[data-figure="stage"] :is(button, input, select)')]
                .map((el) => ({ el, r: el.getBoundingClientRect() }))
                .filter(({ r }) => r.width > 0 && (r.width < 24 || r.height < 24))
                .map(({ el, r }) => `${el.id || el.textContent.trim() || el.tagName} ${r.width.toFixed(1)}×${r.height.toFixed(1)}`));
              assert.deepEqual(small, [], 'tap targets under 24 px');
            }
            if (width === 390) {
              await page.evaluate(() => document.fonts.ready.then(() => window.scrollTo(0, 0)));
              await page.screenshot(`${SHOTS}/${driver.name}-${what}-${lang}-390.png`);
            }
          }
        });
      }
    });
  }
}
