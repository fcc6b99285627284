// Each language's words in a file of their own (src/app/i18n/load.rs;
// docs/performance.md, "Each language's words when it is read"): a reader
// fetches only the language they read, the other one when they switch to
// it, and a page whose words cannot be fetched says so instead of showing
// a page without words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, switchLanguage, BASE_URL } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const words = (url) => (new URL(url).pathname.match(/\/strings-(zh|en)-[0-9a-f]{16}\.txt$/) ?? [])[1];
const title = (page) => page.$eval('#app h1', (h) => h.textContent);

test('a reader fetches only their language\'s words, and the other language\'s once, when they switch to it', async () => {
  const { context, page, problems } = await openPage(browser);
  const fetched = [];
  page.on('request', (r) => { if (words(r.url())) fetched.push(words(r.url())); });
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  await page.waitForSelector('section.labs [data-lab="cost"]');
  await page.waitForLoadState('networkidle');
  assert.deepEqual(fetched, ['en']);
  assert.match(await title(page), /Attention Lab/);
  assert.match(await page.textContent('section.labs'), /Labs: why attention is computed this way/);
  await switchLanguage(page, 'zh-CN');
  assert.match(await title(page), /注意力实验室/);
  await page.waitForFunction(() => document.querySelector('section.labs').textContent.includes('实验：注意力为什么这样算'));
  await switchLanguage(page, 'en');
  await switchLanguage(page, 'zh-CN');
  assert.deepEqual(fetched, ['en', 'zh']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('when the other language\'s words cannot be fetched, the page stays in its language, says so, and switches on the next try', async () => {
  const { context, page } = await openPage(browser);
  let tries = 0;
  await page.route(/\/strings-zh-[0-9a-f]{16}\.txt$/, async (route) => {
    tries += 1;
    if (tries === 1) await route.abort();
    else await route.continue();
  });
  await page.goto(`${BASE_URL}?lang=en`);
  await ready(page);
  const cell = '[data-matrix="x"] [data-row="0"][data-col="0"] input';
  await page.fill(cell, '7');
  await page.press(cell, 'Enter');
  await page.waitForSelector('#undo:not([disabled])');
  await page.click('.lang-switch');
  await page.waitForSelector('.alert[role="alert"]');
  assert.match(await page.textContent('.alert[role="alert"]'), /could not be downloaded, so the page stays in this one/);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.match(await title(page), /Attention Lab/);
  // The reader's edit is still there.
  assert.equal(await page.inputValue(cell), '7');
  await switchLanguage(page, 'zh-CN');
  assert.match(await title(page), /注意力实验室/);
  assert.equal(await page.inputValue(cell), '7');
  assert.equal(tries, 2);
  await context.close();
});

test('when the page\'s words cannot be fetched, it says so in both languages and keeps the first screen', async () => {
  const { context, page } = await openPage(browser);
  await page.route(/\/strings-(zh|en)-[0-9a-f]{16}\.txt$/, (route) => route.abort());
  await page.goto(BASE_URL);
  await page.waitForSelector('[data-words-unavailable][role="alert"]');
  const text = await page.textContent('[data-words-unavailable]');
  assert.match(text, /注意力实验室的文字没能下载/);
  assert.match(text, /Attention Lab could not download its words/);
  // The pre-rendered stage is still shown; the app never rendered.
  assert.ok(await page.$eval('main[data-pre="en-row"]', (m) => getComputedStyle(m).display !== 'none'));
  assert.equal(await page.$('#app'), null);
  await context.close();
});
