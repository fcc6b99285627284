// WebKitGTK (Safari's engine; Debian's webkit2gtk-driver) through
// WebKitWebDriver, W3C WebDriver classic, with this small HTTP client.
// The browser is WebKitGTK's MiniBrowser, on the X display the suite runs
// under (xvfb-run in scripts/test.sh; started here if there is none).
// What classic WebDriver cannot do here, and how this driver does it:
// - touch: pointer actions of type "touch" arrive as mouse events, so a
//   touch drag is pointer events with pointerType "touch" dispatched in the
//   page (common.mjs, syntheticDrag);
// - reduced motion: WebKitGTK follows GTK's gtk-enable-animations, so a
//   second WebKitWebDriver runs with a GTK settings.ini that turns it off;
// - widths under the window's minimum (about 450 px): the page runs in an
//   iframe of exactly that size on an about:blank page, and the commands
//   go to that frame;
// - console errors: not seen (classic WebDriver has no console log).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor, centreOf, syntheticDrag, poll, reveal } from './common.mjs';

export const name = 'webkit';

const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const KEYS = { Enter: '\uE007', Escape: '\uE00C', Tab: '\uE004', ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Home: '\uE011', End: '\uE010' };

const freePort = () => new Promise((done) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => done(port)); });
});

/** One WebKitWebDriver process (one session at a time). */
async function startDriver(extraEnv = {}) {
  const port = await freePort();
  const env = { ...process.env, ...extraEnv };
  const [cmd, args] = env.DISPLAY
    ? ['WebKitWebDriver', [`--port=${port}`, '--replace-on-new-session']]
    : ['xvfb-run', ['-a', '-s', '-screen 0 1600x1200x24', 'WebKitWebDriver', `--port=${port}`, '--replace-on-new-session']];
  // Its output is not read: a pipe left open would keep the tests' process
  // alive after a failure.
  const proc = spawn(cmd, args, { env, detached: true, stdio: 'ignore' });
  proc.unref();
  const base = `http://127.0.0.1:${port}`;
  await poll(() => fetch(`${base}/status`).then((r) => r.json()).then((j) => j.value.ready).catch(() => false), 'WebKitWebDriver to start', 15000);
  return { base, stop: () => { try { process.kill(-proc.pid, 'SIGTERM'); } catch { /* gone */ } } };
}

async function call(base, method, path, body) {
  let res;
  try {
    res = await fetch(base + path, {
      method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(path.endsWith('/session') ? 60000 : 40000),
    });
  } catch (e) {
    throw new Error(`WebDriver ${method} ${path}${body ? ` ${JSON.stringify(body).slice(0, 200)}` : ''}: ${e.message}`);
  }
  const json = await res.json();
  if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
  return json.value;
}

export async function launch() {
  const drivers = { normal: await startDriver() };
  let gtkDir;
  const caps0 = { capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } } };
  let probe;
  try {
    probe = await call(drivers.normal.base, 'POST', '/session', caps0);
  } catch (e) {
    // A first session on a loaded machine can miss the timeout: once more
    // with a new driver; if that fails too, leave nothing running.
    console.log(`# webkit: ${e.message}; restarting WebKitWebDriver`);
    drivers.normal.stop();
    drivers.normal = await startDriver();
    try {
      probe = await call(drivers.normal.base, 'POST', '/session', caps0);
    } catch (e2) {
      drivers.normal.stop();
      throw e2;
    }
  }
  await call(drivers.normal.base, 'DELETE', `/session/${probe.sessionId}`);
  return {
    version: `MiniBrowser ${probe.capabilities.browserVersion}`,
    async newPage({ width = 1280, height = 900, reducedMotion = false } = {}) {
      let driver = drivers.normal;
      if (reducedMotion) {
        if (!drivers.reduced) {
          gtkDir = mkdtempSync(join(tmpdir(), 'cross-gtk-'));
          mkdirSync(join(gtkDir, 'gtk-3.0'));
          writeFileSync(join(gtkDir, 'gtk-3.0', 'settings.ini'), '[Settings]\ngtk-enable-animations=0\n');
          drivers.reduced = await startDriver({ XDG_CONFIG_HOME: gtkDir });
        }
        driver = drivers.reduced;
      }
      const caps = { capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': {
        binary: MINIBROWSER, args: ['--automation'],
      } } } };
      let session;
      try {
        session = await call(driver.base, 'POST', '/session', caps);
      } catch (e) {
        // Now and then a new session never answers: one retry with a new driver.
        console.log(`# webkit: ${e.message}; restarting WebKitWebDriver`);
        const key = reducedMotion ? 'reduced' : 'normal';
        driver.stop();
        driver = drivers[key] = await startDriver(reducedMotion ? { XDG_CONFIG_HOME: gtkDir } : {});
        session = await call(driver.base, 'POST', '/session', caps);
      }
      const s = `/session/${session.sessionId}`;
      const wd = (method, path, body) => call(driver.base, method, s + path, body);
      // The window's size for an inner size of width × height.
      await wd('POST', '/window/rect', { x: 0, y: 0, width, height });
      const inner = await wd('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight]', args: [] });
      const rect = await wd('POST', '/window/rect', { width: 2 * width - inner[0], height: 2 * height - inner[1] });
      const got = await wd('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight]', args: [] });
      void rect;
      const framed = got[0] !== width;
      if (framed) {
        await wd('POST', '/url', { url: 'about:blank' });
        await wd('POST', '/execute/sync', { script: `document.body.style.margin = 0;
          const f = document.createElement('iframe');
          f.style.cssText = 'border:0;display:block;width:${width}px;height:${Math.min(height, got[1])}px';
          document.body.append(f);`, args: [] });
      }
      const element = async (sel) => {
        const el = await wd('POST', '/element', { using: 'css selector', value: sel });
        return Object.values(el)[0];
      };
      const keys = (text) => wd('POST', '/actions', { actions: [{ type: 'key', id: 'kb', actions: [...text].flatMap((c) => [{ type: 'keyDown', value: c }, { type: 'keyUp', value: c }]) }] });
      const me = {
        framed,
        // Classic WebDriver has no console log, and MiniBrowser's console
        // output does not reach WebKitWebDriver's: not checked here.
        problems: [],
        async goto(url) {
          if (!framed) return wd('POST', '/url', { url });
          await wd('POST', '/frame/parent', {});
          await wd('POST', '/execute/async', { script: `const done = arguments[0]; const f = document.querySelector('iframe');
            f.onload = () => done(true); f.src = ${JSON.stringify(url)};`, args: [] });
          await wd('POST', '/frame', { id: 0 });
        },
        async reload() {
          if (!framed) return wd('POST', '/refresh', {});
          await me.goto(await me.evaluate(() => location.href));
        },
        async evaluate(fn, arg) {
          const r = await wd('POST', '/execute/async', {
            script: `const done = arguments[arguments.length - 1];
              Promise.resolve().then(() => (${fn}).call(null, arguments[0]))
                .then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ err: String(e && e.stack || e) }));`,
            args: [arg === undefined ? null : arg],
          });
          if (r && 'err' in r) throw new Error(`evaluate: ${r.err}`);
          return r?.ok;
        },
        waitFor: (target, arg, opts) => waitFor(me, target, arg, opts),
        async click(sel) {
          await waitFor(me, sel);
          // WebKit calls an element in a section skipped by
          // content-visibility: auto "not interactable" until it is on screen.
          // A layout shift between scrolling and clicking (a chunk's section
          // rendering above the element) leaves it "not interactable" too:
          // reveal it again and retry, a few times, before giving up.
          for (let attempt = 1; ; attempt++) {
            await me.evaluate(reveal, sel);
            try {
              await wd('POST', `/element/${await element(sel)}/click`, {});
              return;
            } catch (e) {
              if (attempt >= 5 || !/not interactable/.test(String(e.message))) throw e;
            }
          }
        },
        async fill(sel, text, key = 'Enter') {
          await me.click(sel);
          await me.evaluate((q) => document.querySelector(q).select(), sel);
          await keys(text + (key ? KEYS[key] : ''));
        },
        press: (key) => keys(KEYS[key] ?? key),
        attr: (sel, n) => me.evaluate(([q, a]) => document.querySelector(q).getAttribute(a), [sel, n]),
        text: (sel) => me.evaluate((q) => document.querySelector(q).textContent, sel),
        async drag(sel, dx, dy) {
          const { x, y } = await centreOf(me, sel);
          const moves = [1, 2, 3, 4, 5].map((i) => ({ type: 'pointerMove', duration: 20, x: Math.round(x + (dx * i) / 5), y: Math.round(y + (dy * i) / 5) }));
          await wd('POST', '/actions', { actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [
            { type: 'pointerMove', x, y }, { type: 'pointerDown', button: 0 }, ...moves, { type: 'pointerUp', button: 0 }] }] });
          await wd('DELETE', '/actions');
        },
        touchDrag: (sel, dx, dy) => syntheticDrag(me, sel, dx, dy, 'touch'),
        async screenshot(path) {
          const { writeFile } = await import('node:fs/promises');
          await writeFile(path, Buffer.from(await wd('GET', '/screenshot'), 'base64'));
        },
        close: () => wd('DELETE', ''),
      };
      return me;
    },
    async close() {
      for (const d of Object.values(drivers)) d.stop();
      if (gtkDir) rmSync(gtkDir, { recursive: true, force: true });
    },
  };
}
