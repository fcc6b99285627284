// The tokens lab (docs/format.md §3, "The tokens lab"): what can be a token.
// An image cut into patches, a sound cut into 10 ms frames, the people of a
// social network; n follows the patch side and the duration, the weights
// drawn back on the object are the engine's (recomputed here from the X the
// lab shows with the reference of tests/e2e/reference.mjs), masked pairs
// weigh exactly 0, and the lab's code is fetched only when it is opened.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, switchLanguage, BASE_URL } from './helpers.mjs';
import { reference } from './reference.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const LAB = '[data-lab="tokens"]';

async function openLab(page, lang, extra = '') {
  await page.goto(`${BASE_URL}?lang=${lang}&view=tokens${extra}`);
  await page.waitForSelector(`${LAB}[data-kind] [data-control="kind"]`, { timeout: 20000 });
}

const attr = (page, name) => page.getAttribute(LAB, name);

/** Waits until the lab's attribute `name` is `value`. */
async function waitAttr(page, name, value) {
  await page.waitForFunction(([sel, name, value]) => document.querySelector(sel)?.getAttribute(name) === value,
    [LAB, name, value], { polling: 'raf' });
}

/** X as the lab shows it (`data-values`, exact), n × d. */
async function shownX(page, selector) {
  const [shape, values] = await page.$eval(`${LAB} ${selector}`, (el) => [el.dataset.x, el.dataset.values]);
  const [n, d] = shape.split('x').map(Number);
  const flat = values.split(' ').map(Number);
  assert.equal(flat.length, n * d);
  return Array.from({ length: n }, (_, i) => flat.slice(i * d, i * d + d));
}

/** The weights of query `q` as the reference computes them: one head with
 * W_Q = W_K = W_V = I (the lab's, docs/format.md §3), scaled, `mask`. */
function referenceRow(x, q, mask) {
  const d = x[0].length;
  const eye = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
  const r = reference({ x, heads: [{ w_q: eye, w_k: eye, w_v: eye }], scale: true, mask });
  return r.heads[0].weights[q];
}

/** Each `[data-…]` element's `data-weight`, in order. */
const weights = (page, sel) => page.$$eval(`${LAB} ${sel}`, (els) => els.map((e) => Number(e.dataset.weight)));

function assertRow(actual, expected, what) {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((v, j) => assert.ok(Math.abs(v - expected[j]) <= 1e-12, `${what}: ${j}: ${v} vs ${expected[j]}`));
  assert.ok(Math.abs(actual.reduce((a, b) => a + b, 0) - 1) < 1e-12, `${what}: sums to 1`);
}

test('the tokens lab is its own chunk, fetched only when opened with its words in the reader\'s language', async () => {
  const { context, page, problems } = await openPage(browser);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const chunk = (p) => /\/tokens-[0-9a-f]+\.wasm$/.test(p);
  const words = (p) => (p.match(/\/strings-tokens-(zh|en)-[0-9a-f]{16}\.txt$/) ?? [])[1];
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  await page.waitForSelector('[data-lab="scoring"]', { timeout: 20000 });
  // The other labs' chunk and words are here; the tokens lab's are not.
  assert.ok(fetched.some((p) => /\/strings-labs-en-[0-9a-f]{16}\.txt$/.test(p)), fetched.join('\n'));
  assert.ok(!fetched.some(chunk), fetched.join('\n'));
  assert.deepEqual(fetched.filter(words), []);
  assert.ok(!fetched.some((p) => /\/digits-[0-9a-f]+\.txt$/.test(p)), 'the digits come only with their task');
  await page.click(`${LAB} [data-control="open-lab"]`);
  await page.waitForSelector(`${LAB}[data-kind="image"]`, { timeout: 20000 });
  assert.ok(fetched.some(chunk));
  assert.deepEqual(fetched.filter(words).map(words), ['en']);
  assert.match(await page.textContent(LAB), /What becomes the sequence/);
  // Another language: its tokens lab's words come with the page's.
  await switchLanguage(page, 'zh-CN');
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('什么变成序列'), LAB);
  assert.deepEqual(fetched.filter(words).map(words), ['en', 'zh']);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const lang of ['zh', 'en']) {
  test(`tokens (${lang}): an image's n follows the patch side, and a patch's weights are the engine's`, async () => {
    const { context, page, problems } = await openPage(browser);
    await openLab(page, lang);
    for (const [p, n] of [[1, 64], [4, 4], [2, 16]]) {
      await page.selectOption(`${LAB} [data-control="patch"]`, String(p));
      await waitAttr(page, 'data-n', String(n));
      assert.equal(await page.locator(`${LAB} [data-patch]`).count(), n);
      assert.ok((await page.textContent(`${LAB} [data-count]`)).includes(`= ${n}`));
    }
    assert.equal(await attr(page, 'data-d'), '16');
    // A patch by keyboard, then by a click.
    await page.focus(`${LAB} [data-patch="3"]`);
    await page.keyboard.press('Enter');
    await waitAttr(page, 'data-query', '3');
    await page.click(`${LAB} [data-patch="9"]`);
    await waitAttr(page, 'data-query', '9');
    const x = await shownX(page, '.x-grid');
    assertRow(await weights(page, '[data-patch]'), referenceRow(x, 9), 'patch 9');
    // Drawing changes X and the weights follow it.
    const before = await page.getAttribute(`${LAB} .x-grid`, 'data-values');
    const box = await page.locator(`${LAB} [data-image]`).boundingBox();
    await page.mouse.click(box.x + box.width * 0.06, box.y + box.height * 0.06);
    await page.waitForFunction(([sel, v]) => document.querySelector(sel).dataset.values !== v, [`${LAB} .x-grid`, before]);
    assertRow(await weights(page, '[data-patch]'), referenceRow(await shownX(page, '.x-grid'), 9), 'patch 9 after drawing');
    // The question's numbers are the state's: from n = 16 at p = 2 to p = 1.
    await page.click(`${LAB} .predict .skip`);
    const why = await page.textContent(`${LAB} .predict .verdict`);
    assert.ok(why.includes('16 → 64') && why.includes('256') && why.includes('4096'), why);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`tokens (${lang}): 1 s of sound is about 100 frames, 0.5 s half as many; a frame's weights are the engine's`, async () => {
    const { context, page, problems } = await openPage(browser);
    await openLab(page, lang, '&tokens.kind=audio');
    await waitAttr(page, 'data-kind', 'audio');
    const n1 = Number(await attr(page, 'data-n'));
    assert.ok(Math.abs(n1 - 100) <= 2, `n for 1 s: ${n1}`);
    assert.equal(await page.locator(`${LAB} [data-frame]`).count(), n1);
    await page.fill(`${LAB} [data-control="duration"]`, '0.5');
    await page.press(`${LAB} [data-control="duration"]`, 'Enter');
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel).dataset.n) !== n, [LAB, n1]);
    const half = Number(await attr(page, 'data-n'));
    assert.ok(Math.abs(half - n1 / 2) <= 1, `n for 0.5 s: ${half}`);
    // A duration out of range is refused where it was typed; n stays.
    await page.fill(`${LAB} [data-control="duration"]`, '9');
    await page.press(`${LAB} [data-control="duration"]`, 'Enter');
    await page.waitForSelector(`${LAB} [role="alert"]`);
    assert.equal(await page.getAttribute(`${LAB} [data-control="duration"]`, 'aria-invalid'), 'true');
    assert.equal(Number(await attr(page, 'data-n')), half);
    await page.fill(`${LAB} [data-control="duration"]`, '1');
    await page.press(`${LAB} [data-control="duration"]`, 'Enter');
    await waitAttr(page, 'data-n', String(n1));
    // The query frame by the slider (keyboard, finger), then by a click.
    await page.fill(`${LAB} [data-control="query"]`, '10');
    await waitAttr(page, 'data-query', '10');
    await page.click(`${LAB} [data-frame="30"]`);
    await waitAttr(page, 'data-query', '30');
    const x = await shownX(page, '.x-grid');
    assert.equal(x.length, n1);
    assertRow(await weights(page, '[data-frame]'), referenceRow(x, 30), 'frame 30');
    assert.ok((await page.textContent(`${LAB} [data-cost]`)).includes((n1 * n1).toLocaleString('en-US')));
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`tokens (${lang}): friends-only attention gives non-friends exactly 0`, async () => {
    const { context, page, problems } = await openPage(browser);
    await openLab(page, lang, '&tokens.kind=graph');
    await waitAttr(page, 'data-kind', 'graph');
    const edges = await page.$$eval(`${LAB} line[data-edge]`, (ls) => ls.map((l) => l.dataset.edge.split('-').map(Number)));
    const n = Number(await attr(page, 'data-n'));
    const friend = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => i === j
      || edges.some(([a, b]) => (a === i && b === j) || (a === j && b === i))));
    for (const q of [0, 4, 7]) {
      await page.click(`${LAB} [data-node="${q}"]`);
      await waitAttr(page, 'data-query', String(q));
      const w = await weights(page, '[data-node]');
      const x = await shownX(page, '.people');
      assertRow(w, referenceRow(x, q, { custom: friend }), `person ${q}`);
      friend[q].forEach((f, j) => { if (!f) assert.equal(w[j], 0, `${q} → ${j}`); });
      assert.ok(w.filter((v) => v === 0).length >= 1);
    }
    await page.check(`${LAB} input[value="everyone"]`);
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((e) => Number(e.dataset.weight) > 0), `${LAB} [data-node]`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
