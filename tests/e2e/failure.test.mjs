// A failure of the WebAssembly (a trap, or a panic, which traps) never
// leaves a frozen page: the page says so in the reader's language, says
// their work is saved, and offers to reload; after the reload the work is
// there. The failure is forced through the test event of
// src/app/failure.rs, from inside the module as a real bug would fail.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, ready, BASE_URL } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const X00 = '[data-matrix="x"] [data-row="0"][data-col="0"]';

const WORDS = {
  zh: { title: '出错了', saved: '你的工作已经保存在这个浏览器里', button: '重新加载' },
  en: { title: 'Something went wrong', saved: 'Your work is saved in this browser', button: 'Reload' },
};

for (const lang of ['zh', 'en']) {
  for (const kind of ['panic', 'trap']) {
    test(`${lang}: a ${kind} in the module shows what happened, keeps the work, and Reload brings it back`, async () => {
      const { context, page, problems } = await openPage(browser);
      await page.goto(`${BASE_URL}?lang=${lang}`);
      await ready(page);
      // The reader's work: X[0][0] = 7, in storage.
      await page.fill(`${X00} input`, '7');
      await page.press(`${X00} input`, 'Enter');
      await page.waitForFunction(() => JSON.parse(localStorage.getItem('attention-lab.scenario') ?? '{}').x?.[0]?.[0] === 7);
      const before = await page.evaluate(() => localStorage.getItem('attention-lab.scenario'));

      await page.evaluate(([name, detail]) => window.dispatchEvent(new CustomEvent(name, { detail })),
        ['attention-lab-test-failure', kind]);
      const box = await page.waitForSelector('[data-failure][role="alertdialog"]', { timeout: 5000 });
      const text = await box.textContent();
      const w = WORDS[lang];
      assert.ok(text.includes(w.title) && text.includes(w.saved), text);
      assert.equal(await page.textContent('[data-failure] [data-control="reload"]'), w.button);
      if (lang === 'zh') assert.doesNotMatch(text, /[A-Za-z]/, 'no English on the Chinese page');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.control), 'reload');
      assert.ok(await page.evaluate(() => document.documentElement.hasAttribute('data-failed')));
      // The module's trap is what the page heard; nothing else went wrong.
      assert.ok(problems.length > 0 && problems.every((p) => /unreachable|RuntimeError/i.test(p)), problems.join('\n'));

      await Promise.all([page.waitForNavigation(), page.click('[data-failure] [data-control="reload"]')]);
      await ready(page);
      assert.equal(await page.$('[data-failure]'), null);
      assert.equal(await page.getAttribute(X00, 'data-value'), '7');
      assert.equal(await page.evaluate(() => localStorage.getItem('attention-lab.scenario')), before, 'the saved scenario is intact');
      await context.close();
    });
  }
}
