// Benchmark (not a test): the first paint and the page's bytes
// (docs/performance.md, "First paint"). Chromium, cold cache (a new context
// each time), served gzip-compressed like a static host
// (serve-dist.py --gzip). Prints:
// - the stage painted with its numbers over an emulated phone network
//   (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trips: the DevTools
//   protocol's network emulation), median of 5;
// - the same on the local server, median of 7;
//   both "the later of First Contentful Paint and the stage, with its
//   numbers, shown in the DOM" (the pre-rendered copy or the app's own);
// - every byte the full page can fetch, gzip: the page (with one language's words), the labs' chunk
//   (with the chunk it shares), the training lab's chunk, the math font.
// Usage: BASE_URL=http://127.0.0.1:PORT/ DIST=dist node scripts/bench-first.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch, openPage } from '../tests/e2e/helpers.mjs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
const DIST = process.env.DIST ?? 'dist';
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** ms from navigation start to the stage painted with its numbers. */
async function firstStage(browser, throttled) {
  const { context, page } = await openPage(browser, { locale: 'en-US', viewport: { width: 390, height: 844 } });
  if (throttled) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
    });
  }
  await page.addInitScript(() => {
    const shown = () => (document.documentElement.hasAttribute('data-pre')
      ? document.querySelector(`main[data-pre="${document.documentElement.dataset.pre}"] [data-pre-stage] svg .cell text`)
      : document.querySelector('#app [data-figure="stage"] svg [data-value]'));
    const check = () => {
      if (!window.__stageAt && shown()) {
        window.__stageAt = performance.now();
        // Told by a console message, not by polling (a poll injects the
        // driver's own script into the page while it loads).
        requestAnimationFrame(() => setTimeout(() => console.log('attention-lab-bench: stage'), 0));
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
    document.addEventListener('DOMContentLoaded', check);
  });
  const told = page.waitForEvent('console', { predicate: (m) => m.text() === 'attention-lab-bench: stage', timeout: 60000 });
  await page.goto(BASE_URL, { waitUntil: 'commit' });
  await told;
  // The paint entry can be reported a frame after the paint.
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
  const r = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0].startTime,
    stage: window.__stageAt,
    bytes: performance.getEntriesByType('navigation')[0].transferSize
      + performance.getEntriesByType('resource').filter((e) => e.responseEnd <= Math.max(window.__stageAt, performance.getEntriesByName('first-contentful-paint')[0].startTime))
        .reduce((a, e) => a + e.transferSize, 0),
  }));
  await context.close();
  return r;
}

async function row(browser, throttled, samples) {
  const runs = [];
  for (let k = 0; k < samples; k++) runs.push(await firstStage(browser, throttled));
  const at = runs.map((r) => Math.max(r.fcp, r.stage));
  return {
    median: median(at), min: Math.min(...at), max: Math.max(...at),
    fcp: median(runs.map((r) => r.fcp)), stage: median(runs.map((r) => r.stage)),
    bytes: median(runs.map((r) => r.bytes)),
  };
}

/** gzip -9 bytes of every file the page can fetch, by part. */
function bytes() {
  const parts = { page: 0, labs: 0, train: 0, font: 0 };
  const walk = (dir) => readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
  let words = 0;
  for (const file of walk(DIST)) {
    const name = path.relative(DIST, file);
    // A reader fetches one language's words (src/app/i18n/load.rs): the larger file counts.
    if (/^strings-(zh|en)-[0-9a-f]+\.txt$/.test(name)) {
      words = Math.max(words, gzipSync(readFileSync(file), { level: 9 }).length);
      continue;
    }
    if (/^notes\.(html|js)$/.test(name) || name.endsWith('.txt')) continue; // the sample host page, the font's licence
    const data = readFileSync(file);
    if (name.endsWith('.woff2')) { parts.font += data.length; continue; }
    const gz = gzipSync(data, { level: 9 }).length;
    if (name.startsWith('labs-') || name.startsWith('shared-labs-')) parts.labs += gz;
    else if (name.startsWith('train-')) parts.train += gz;
    else if (name.startsWith('tokens-') || name.startsWith('shared-tokens-')) parts.tokens = (parts.tokens ?? 0) + gz;
    else parts.page += gz;
  }
  parts.page += words;
  return parts;
}

const browser = await launch();
const phone = await row(browser, true, 5);
const local = await row(browser, false, 7);
await browser.close();
const b = bytes();
const total = b.page + b.labs + b.train + b.font;
const kb = (n) => `${(n / 1000).toFixed(0)} KB`;
console.log(`first: stage painted, 1.6 Mbit/s, 150 ms round trips: median ${phone.median.toFixed(0)} ms (${phone.min.toFixed(0)}–${phone.max.toFixed(0)}; FCP ${phone.fcp.toFixed(0)}, stage in the DOM ${phone.stage.toFixed(0)}), after ${kb(phone.bytes)} (goal ≤ 800 ms)`);
console.log(`first: stage painted, local server: median ${local.median.toFixed(0)} ms (${local.min.toFixed(0)}–${local.max.toFixed(0)}; FCP ${local.fcp.toFixed(0)}, stage in the DOM ${local.stage.toFixed(0)}) (goal ≤ 150 ms)`);
console.log(`first: everything the page can fetch, gzip: ${kb(total)} (page ${kb(b.page)} + labs ${kb(b.labs)} + training lab ${kb(b.train)} + font ${kb(b.font)}) (goal ≤ 400 KB)`);
