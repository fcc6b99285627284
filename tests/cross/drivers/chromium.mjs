// Chromium (Debian's, as tests/e2e) through playwright-core over CDP.
import { chromium } from 'playwright-core';
import { waitFor, centreOf, reveal, mouseDrag } from './common.mjs';

export const name = 'chromium';

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  return {
    version: browser.version(),
    /** A fresh page in its own context (its own storage). */
    async newPage({ width = 1280, height = 900, lang = 'en', reducedMotion = false, touch = false } = {}) {
      const context = await browser.newContext({
        viewport: { width, height }, locale: lang === 'zh' ? 'zh-CN' : 'en-US',
        reducedMotion: reducedMotion ? 'reduce' : 'no-preference', hasTouch: touch,
      });
      const page = await context.newPage();
      const problems = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      const me = {
        problems,
        goto: (url) => page.goto(url).then(() => {}),
        reload: () => page.reload().then(() => {}),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitFor: (target, arg, opts) => waitFor(me, target, arg, opts),
        async click(sel) {
          await page.waitForSelector(sel, { state: 'attached' });
          await page.evaluate(reveal, sel);
          await page.click(sel);
        },
        async fill(sel, text, key = 'Enter') {
          await page.click(sel);
          await page.evaluate((s) => document.querySelector(s).select(), sel);
          await page.keyboard.type(text);
          if (key) await page.keyboard.press(key);
        },
        press: (key) => page.keyboard.press(key),
        attr: (sel, n) => page.getAttribute(sel, n),
        text: (sel) => page.textContent(sel),
        drag: (sel, dx, dy) => mouseDrag(page, me, sel, dx, dy),
        /** A real touch sequence (CDP Input.dispatchTouchEvent). */
        async touchDrag(sel, dx, dy) {
          const { x, y } = await centreOf(me, sel);
          const cdp = await context.newCDPSession(page);
          const at = (px, py) => [{ x: px, y: py, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(x, y) });
          for (let i = 1; i <= 5; i++) {
            await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(x + (dx * i) / 5, y + (dy * i) / 5) });
          }
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
          await cdp.detach();
        },
        screenshot: (path) => page.screenshot({ path }),
        close: () => context.close(),
      };
      return me;
    },
    close: () => browser.close(),
  };
}
