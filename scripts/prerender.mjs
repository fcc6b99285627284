// The figure before the code (docs/performance.md, "First paint"): renders
// the real page in headless Chromium at build time and writes its first
// screen (the header and the stage's first step, in both languages and both
// layouts) into dist/index.html as plain HTML, so the browser paints the
// stage with note 004's numbers before the WebAssembly arrives.
//
// What it writes:
// - one <main class="page" data-pre="LANG-CONV" inert> per variant (zh/en ×
//   row/col): the page's own header and stage section, with the stage's
//   picture laid out at each of WIDTHS (an inline <style> shows the one for
//   the window's width). Ids (kept as classes `pre-ID`), `for`,
//   `aria-live` and every data-* attribute are taken out, so no test, script
//   or label ever finds the copy instead of the live page;
// - the chooser, a small inline script in <head> that sets
//   <html data-pre="LANG-CONV"> (and <html lang>) when the address and the
//   stored state are exactly what the copy shows: no scenario link, no other
//   parameter, no saved work. Otherwise nothing is shown until the app
//   renders. Inline, so the first paint waits for no request but the
//   page (with the stylesheet, inlined by scripts/postbuild.py): the
//   Content-Security-Policy allows it by its hash, which this script prints
//   and docs/embedding.md lists. Without JavaScript a <noscript> style shows the
//   Chinese, rows variant. The copy's caption has a formula, whose math
//   font is fetched when the copy is laid out: the chooser starting that
//   fetch sooner (a <link rel=preload>) would hold the first paint back by
//   about 20 ms locally (docs/performance.md, "First paint").
// - the WebAssembly's start, the module script and preloads scripts/postbuild.py wrote, inside
//   <template id=attention-lab-start>, which support.js puts into the page
//   at once or, when a copy is shown, after the frame that paints it.
// The app mounts into its own element and, once its stage has its width,
// removes the copies in the same task it shows itself (src/app/web/document.rs,
// `end_prerender`), so the stage does not move.
//
// Usage: node scripts/prerender.mjs DIST
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const dist = process.argv[2] ?? 'dist';
const index = path.join(dist, 'index.html');
let html = readFileSync(index, 'utf8');
if (/<main[^>]* data-pre=/.test(html)) throw new Error('prerender: dist/index.html already holds a pre-rendered page');

// In the order gzip compresses best (its window is 32 KB, about one copy):
// each copy next to one that shares its language or its numbers, the two
// row-convention copies, whose pictures differ only in their words, side by
// side (220 B of index.html less than language by language).
const VARIANTS = [['zh', 'col'], ['zh', 'row'], ['en', 'row'], ['en', 'col']];
// The window widths the stage's first picture is laid out at: the stage's
// layout follows its width (smaller type under 520 px of stage, parts that
// wrap, a picture as wide as its widest step, centred), so each common
// phone and tablet width is exact, and between two of them the picture of
// the narrower one is shown (at most a few pixels off centre).
const WIDTHS = [320, 360, 375, 390, 393, 412, 414, 428, 430, 480, 540, 585, 640, 700, 768, 800, 820, 900, 1024, 1240];

// The chooser. It must agree with the app's own choice of language
// (src/app/web/storage.rs, `initial_lang`: ?lang=, then the remembered one,
// then the browser's) and convention (?convention=, else rows).
const CHOOSER = `(function(){try{
var q=new URLSearchParams(location.search),ok=!location.hash;
q.forEach(function(v,k){if(k!=="lang"&&k!=="convention")ok=false});
var s=window.localStorage,code=function(c){c=(c||"").trim().toLowerCase();
return c==="zh"||/^zh[-_]/.test(c)?"zh":c==="en"||/^en[-_]/.test(c)?"en":null};
if(s.getItem("attention-lab.scenario")!==null||s.getItem("attention-lab.previous")!==null)ok=false;
var l=code(q.get("lang"))||code(s.getItem("attention-lab.lang"))||(code(navigator.language)==="zh"?"zh":"en");
var c=q.has("convention")?q.get("convention"):"row";
if(ok&&(c==="row"||c==="col")){var r=document.documentElement;
r.setAttribute("data-pre",l+"-"+c);if(l==="en")r.setAttribute("lang","en")}
}catch(e){}
if(!document.documentElement.hasAttribute("data-pre")){var t=document.getElementById("attention-lab-start");
if(t)t.content.querySelectorAll("link").forEach(function(n){document.head.appendChild(document.importNode(n,true));n.remove()})}
})();
`;

const freePort = () => new Promise((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

const port = await freePort();
const server = spawn('python3', [path.join(path.dirname(new URL(import.meta.url).pathname), 'serve-dist.py'), String(port), dist], { stdio: 'ignore' });
const base = `http://127.0.0.1:${port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--hide-scrollbars'],
});

/** The page's header and stage section at 1280 px, and the stage's picture
 * at each of WIDTHS (the window resized, the page laid out again), settled
 * (fonts loaded). */
async function capture(lang, conv) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  const page = await context.newPage();
  for (let tries = 0; ; tries++) {
    try {
      await page.goto(`${base}?lang=${lang}&convention=${conv}`);
      break;
    } catch (e) {
      if (tries > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await page.waitForSelector('[data-figure="stage"] svg [data-value]', { timeout: 30000 });
  const shot = (mark) => page.evaluate(async (mark) => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const clean = (el) => {
      const copy = el.cloneNode(true);
      for (const s of copy.querySelectorAll('style')) s.remove();
      for (const e of [copy, ...copy.querySelectorAll('*')]) {
        // An id the stylesheet styles (#wt-play) becomes a class (.pre-wt-play).
        if (e.id) e.classList.add(`pre-${e.id}`);
        for (const a of [...e.attributes]) {
          if (a.name === 'id' || a.name === 'for' || a.name === 'aria-live' || a.name.startsWith('data-')) e.removeAttribute(a.name);
        }
      }
      return copy;
    };
    const stage = document.querySelector('[data-figure="stage"]');
    const section = clean(stage);
    section.setAttribute('data-pre-stage', '');
    const svg = section.querySelector('svg');
    svg.classList.add('pre-w', mark);
    // The scrubber's position is a property: written out as the attribute.
    section.querySelector('input[type=range]')?.setAttribute('value', stage.querySelector('input[type=range]').value);
    const picture = svg.outerHTML;
    svg.replaceWith(document.createComment('picture'));
    return {
      header: clean(document.querySelector('main.page > header')).outerHTML,
      section: section.outerHTML,
      picture,
    };
  }, mark);
  const wide = await shot('pre-wNNN');
  // One <svg> per distinct picture, classed with every width it is for.
  const pictures = new Map();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForFunction((w) => innerWidth === w, width);
    const at = await shot('pre-wNNN');
    if (at.section !== wide.section || at.header !== wide.header) {
      throw new Error(`prerender: at ${width} px the page differs from 1280 px other than in the stage's picture`);
    }
    pictures.set(at.picture, [...(pictures.get(at.picture) ?? []), width]);
  }
  await context.close();
  const svgs = [...pictures].map(([svg, widths]) => {
    const marked = svg.replace('pre-wNNN', widths.map((w) => `pre-w${w}`).join(' '));
    if (marked === svg) throw new Error('prerender: the picture\'s class was not found');
    return marked;
  });
  return { header: wide.header, section: wide.section.replace('<!--picture-->', svgs.join('')) };
}

/** The stylesheet that shows, in a copy, the picture laid out for the
 * window's width: the one captured at the widest width not over it. */
function pictureRules() {
  const rules = ['main[data-pre] svg.pre-w{display:none}'];
  WIDTHS.forEach((w, k) => {
    const lo = k === 0 ? '' : `(min-width:${w}px)`;
    const hi = k + 1 < WIDTHS.length ? `(max-width:${WIDTHS[k + 1] - 0.02}px)` : '';
    const q = [lo, hi].filter(Boolean).join(' and ');
    rules.push(`@media ${q}{main[data-pre] svg.pre-w${w}{display:inline-block}}`);
  });
  return rules.join('');
}

try {
  const mains = [];
  for (const [lang, conv] of VARIANTS) {
    const { header, section } = await capture(lang, conv);
    mains.push(`<main class=page data-pre=${lang}-${conv} inert>${header}${section}</main>`);
  }
  // The WebAssembly's start (postbuild.py's module script and its preloads)
  // waits in a <template>: support.js puts it into the page at once, or,
  // when a copy is shown, after the frame that paints it, so the copy's
  // first paint does not share the machine with fetching and compiling the
  // code (docs/performance.md, "First paint"). With no copy, the chooser
  // starts the preloads at once.
  const starts = [];
  html = html.replace(/<script type=module src=(\S+) integrity=(\S+)><\/script>|<link [^>]*\brel=(?:modulepreload|preload)\b[^>]*>/g,
    (tag, src, integrity) => {
      starts.push(src ? `<link crossorigin href=${src} integrity=${integrity} rel=modulepreload>${tag}` : tag);
      return '';
    });
  if (starts.filter((t) => t.includes('<script')).length !== 1 || starts.length < 3) {
    throw new Error('prerender: the module script and the preloads were not found in index.html');
  }
  // Before the stylesheet; inline and parser-blocking, so it has chosen
  // before the body is parsed and painted.
  const hash = `'sha256-${createHash('sha256').update(CHOOSER).digest('base64')}'`;
  const head = `<template id=attention-lab-start>${starts.join('')}</template><script>${CHOOSER}</script><noscript><style>html main[data-pre=zh-row]{display:block}</style></noscript><style>${pictureRules()}</style>`;
  let count = 0;
  html = html.replace(/<\/title>/, (m) => { count++; return m + head; });
  html = html.replace(/(<body>)([\s\S]*?<\/noscript>)/, (m, body, ns) => { count++; return body + ns + mains.join(''); });
  if (count !== 2) throw new Error('prerender: <title> or the body\'s <noscript> was not found in index.html');
  writeFileSync(index, html);
  const bytes = mains.join('').length;
  console.log(`prerender: ${VARIANTS.length} variants, ${bytes} B of HTML, the chooser inline (script-src ${hash})`);
} finally {
  await browser.close();
  server.kill();
}
