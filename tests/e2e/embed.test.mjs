// Embedding in course notes (part of issue 5/5): ?embed=1, ?view=, ?lock=1,
// height messages, the sample notes page, the embed code, and no request
// leaving the origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, readMatrix, shot, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('embed=1 shows one figure without page chrome; lock=1 makes it read-only', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en&embed=1&view=walkthrough&lock=1');
  await ready(page);
  assert.equal(await page.$('h1'), null, 'no page header');
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

test('the sample notes page: figures grow to their height, nothing leaves the origin', async () => {
  for (const lang of ['zh', 'en']) {
    const { context, page, problems } = await openPage(browser, { viewport: { width: 900, height: 900 } });
    await page.goto(`${BASE_URL}notes.html?lang=${lang}`);
    const frames = await page.$$('iframe');
    assert.equal(frames.length, 3);
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height), null, { timeout: 15000 });
    for (const frame of frames) {
      const inner = await (await frame.contentFrame()).evaluate(() => document.documentElement.scrollHeight);
      const outer = await frame.evaluate((f) => f.getBoundingClientRect().height);
      assert.ok(Math.abs(outer - inner) <= 2, `iframe ${outer}px for content ${inner}px`);
      assert.ok(outer > 480, 'grew beyond its initial height');
      const f = await frame.contentFrame();
      assert.equal(await f.getAttribute('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en');
    }
    // The embedded figures compute the same outputs as the engine (note 004).
    const first = await frames[0].contentFrame();
    const out = await readMatrix(first, '[data-matrix="output"]');
    assert.ok(Math.abs(out[0][0] - 1.9366) < 1e-4);
    await shot(page, `notes-${lang}`);
    assert.deepEqual(problems, [], 'no console errors and no request off the origin');
    await context.close();
  }
});

test('an embedded figure does not overwrite the reader\'s saved work or language', async () => {
  const { context, page, problems } = await openPage(browser);
  await page.goto(BASE_URL + '?lang=en');
  await ready(page);
  const cell = '[data-matrix="x"] [data-row="0"][data-col="0"] input';
  await page.fill(cell, '7');
  await page.press(cell, 'Enter');
  await page.goto(BASE_URL + 'notes.html?lang=zh');
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height), null, { timeout: 15000 });
  await page.goto(BASE_URL);
  await ready(page);
  assert.equal(await page.getAttribute('[data-matrix="x"] [data-row="0"][data-col="0"]', 'data-value'), '7');
  assert.equal(await page.textContent('h1'), 'Attention Lab');
  assert.deepEqual(problems, []);
  await context.close();
});

test('copy embed code gives an iframe for this scenario and an origin-checking listener', async () => {
  const { context, page, problems } = await openPage(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE_URL).origin });
  await page.goto(BASE_URL + '?lang=zh');
  await ready(page);
  await page.click('#copy-embed');
  await page.waitForSelector('.status p');
  const code = await page.evaluate(() => navigator.clipboard.readText());
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
  assert.ok(parseFloat(await page.$eval('iframe', (f) => f.style.height)) > 640);
  assert.deepEqual(problems, []);
  await context.close();
});
