// Firefox ESR (Debian's firefox-esr) through puppeteer-core over WebDriver
// BiDi. Reduced motion has no BiDi emulation: a second browser is started
// with the ui.prefersReducedMotion preference when a page asks for it.
import puppeteer from 'puppeteer-core';
import { waitFor, centreOf, reveal, mouseDrag } from './common.mjs';

export const name = 'firefox';

const KEYS = { Enter: 'Enter', Escape: 'Escape', Tab: 'Tab', ArrowUp: 'ArrowUp', ArrowDown: 'ArrowDown', ArrowLeft: 'ArrowLeft', ArrowRight: 'ArrowRight' };

/** Starts Firefox; on a loaded machine its first start can take well over
 * puppeteer's default 30 s, so allow 120 s, and try once more. */
async function start(prefs = {}) {
  const options = {
    browser: 'firefox',
    executablePath: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
    headless: true,
    timeout: 120000,
    protocolTimeout: 120000,
    extraPrefsFirefox: { 'intl.accept_languages': 'en-US', ...prefs },
  };
  try {
    return await puppeteer.launch(options);
  } catch (e) {
    console.log(`# firefox: ${e.message}; starting again`);
    return puppeteer.launch(options);
  }
}

export async function launch() {
  const browsers = { normal: await start() };
  return {
    version: await browsers.normal.version(),
    async newPage({ width = 1280, height = 900, lang = 'en', reducedMotion = false, touch = false } = {}) {
      let browser = browsers.normal;
      if (reducedMotion) browser = browsers.reduced ??= await start({ 'ui.prefersReducedMotion': 1 });
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height, hasTouch: touch });
      const problems = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => {
        // A font download cut short by the next navigation (NS_BINDING_ABORTED)
        // is Firefox's report of the test leaving, not the page's error.
        if (/downloadable font: download failed.*status=2152398850/.test(e.message)) return;
        // Firefox lays out a page while it is still parsing it, and says
        // so when a MathML script or fraction it lays out has not yet got
        // all its children: the pre-rendered first screen's formula
        // (scripts/prerender.mjs), caught between two batches of the
        // parser on a loaded machine (seen once, in Firefox ESR on CI). The
        // app inserts its own formulas whole (innerHTML of a detached
        // element), and crates/lesson's tests hold every formula to the
        // children MathML gives each element (formulas.rs, `well_formed`):
        // the finished page is valid.
        if (/^Invalid markup: Incorrect number of children for <(msub|msup|msubsup|mfrac)\/> tag\.$/.test(e.message)) return;
        problems.push(`pageerror: ${e.message}`);
      });
      void lang; // The suite chooses the language with ?lang=.
      const me = {
        problems,
        goto: (url) => page.goto(url).then(() => {}),
        reload: () => page.reload().then(() => {}),
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        waitFor: (target, arg, opts) => waitFor(me, target, arg, opts),
        async click(sel) {
          await page.waitForSelector(sel, { timeout: 15000 });
          await page.evaluate(reveal, sel);
          await page.click(sel);
        },
        async fill(sel, text, key = 'Enter') {
          await me.click(sel);
          await page.evaluate((s) => document.querySelector(s).select(), sel);
          await page.keyboard.type(text);
          if (key) await page.keyboard.press(KEYS[key] ?? key);
        },
        press: (key) => page.keyboard.press(KEYS[key] ?? key),
        attr: (sel, n) => page.$eval(sel, (el, n) => el.getAttribute(n), n),
        text: (sel) => page.$eval(sel, (el) => el.textContent),
        drag: (sel, dx, dy) => mouseDrag(page, me, sel, dx, dy),
        /** A real touch sequence (BiDi input.performActions, pointerType touch). */
        async touchDrag(sel, dx, dy) {
          const { x, y } = await centreOf(me, sel);
          await page.touchscreen.touchStart(x, y);
          for (let i = 1; i <= 5; i++) await page.touchscreen.touchMove(x + (dx * i) / 5, y + (dy * i) / 5);
          await page.touchscreen.touchEnd();
        },
        screenshot: (path) => page.screenshot({ path }),
        close: () => context.close(),
      };
      return me;
    },
    async close() {
      await Promise.all(Object.values(browsers).map((b) => b.close()));
    },
  };
}
